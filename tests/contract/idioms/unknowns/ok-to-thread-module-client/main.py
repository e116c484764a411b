"""Async worker: one module-level client; the blocking submit runs in a worker thread."""

import asyncio

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
ROWS = [{"question": "2+2", "answer": "4"}]


async def main():
    agent_job = await asyncio.to_thread(
        client.evaluator.submit,
        tasks=TasksetRef("qa/smoke"),
        target=RUNNER,
        config=None,
    )
    row_job = await asyncio.to_thread(
        client.evaluator.submit,
        metric=ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}"),
        dataset=ROWS,
        config=RunConfig(parallelism=16),
    )
    print(agent_job, row_job)


asyncio.run(main())
