"""Scheduler: the row check is prepared with the agent runner as its target."""

import asyncio
import functools

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
ROW_CHECK = functools.partial(
    client.evaluator.submit,
    metric=METRIC,
    dataset=[{"question": "2+2", "answer": "4"}],
    target=RUNNER,  # expect: ES105
)


async def main():
    loop = asyncio.get_running_loop()
    print(await loop.run_in_executor(None, ROW_CHECK))


asyncio.run(main())
