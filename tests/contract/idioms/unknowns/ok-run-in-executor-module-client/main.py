"""Scheduler: submissions are prepared as partials and run on the loop's default executor."""

import asyncio
import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
CALLS = [
    functools.partial(client.evaluator.submit, tasks=TasksetRef("qa/smoke"), target=RUNNER),
    functools.partial(client.evaluator.submit, metric=METRIC, dataset=[{"question": "2+2"}]),
]


async def main():
    loop = asyncio.get_running_loop()
    print(await asyncio.gather(*(loop.run_in_executor(None, call) for call in CALLS)))


asyncio.run(main())
