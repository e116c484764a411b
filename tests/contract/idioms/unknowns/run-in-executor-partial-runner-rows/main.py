"""Webhook handler: the row check is prepared with the agent runner as its target."""

import asyncio
import functools

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")


async def on_rows(client, rows):
    loop = asyncio.get_running_loop()
    call = functools.partial(
        client.evaluator.submit,
        metric=METRIC,
        dataset=rows,
        target=RUNNER,  # expect: ES105
    )
    return await loop.run_in_executor(None, call)


async def main():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    print(await on_rows(client, [{"question": "2+2", "answer": "4"}]))


asyncio.run(main())
