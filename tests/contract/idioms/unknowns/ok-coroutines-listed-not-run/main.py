"""Batch scorer's planning step: the submissions are made as coroutines and listed, never
awaited (a coroutine's body runs only when something runs it)."""

import asyncio

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
BATCHES = [[{"question": "2+2", "answer": "4"}], [{"question": "3+3", "answer": "6"}]]


async def score_batch(client, rows):
    return await asyncio.to_thread(
        client.evaluator.submit, metric=METRIC, dataset=rows, target=RUNNER
    )


def plan(client):
    pending = [score_batch(client, rows) for rows in BATCHES]
    for coroutine in pending:
        print("would run", coroutine.__qualname__)
        coroutine.close()
    return len(pending)


if __name__ == "__main__":
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    print(plan(client), "batches planned")
