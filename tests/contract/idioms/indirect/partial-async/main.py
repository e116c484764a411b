"""An async partial: the metric is bound, the rest comes per call."""

import asyncio
from functools import partial

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import AsyncNeMoPlatform

ROWS = [{"question": "2+2?", "answer": "4"}]


async def main():
    client = AsyncNeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
    score = partial(client.evaluator.submit, metric=metric)
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
    )
    await score(dataset=ROWS)
    await score(dataset=ROWS, target=runner)  # expect: ES105
    await score(target=runner)  # expect: ES103


asyncio.run(main())
