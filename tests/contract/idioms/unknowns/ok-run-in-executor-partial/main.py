"""Webhook handler: submissions are prepared as partials and run on the loop's executor."""

import asyncio
import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")


async def on_event(client, event):
    loop = asyncio.get_running_loop()
    if event["type"] == "suite":
        call = functools.partial(
            client.evaluator.submit, tasks=TasksetRef(event["suite"]), target=RUNNER
        )
    else:
        call = functools.partial(client.evaluator.submit, metric=METRIC, dataset=event["rows"])
    return await loop.run_in_executor(None, call)


async def main():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    events = [
        {"type": "suite", "suite": "qa/smoke"},
        {"type": "rows", "rows": [{"question": "2+2", "answer": "4"}]},
    ]
    for event in events:
        print(await on_event(client, event))


asyncio.run(main())
