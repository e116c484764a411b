"""Nightly grader: both answer sets are scored concurrently on one event loop."""

import asyncio

from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

AGENT = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
MATH = [{"question": "2+2", "answer": "4"}]
TRIVIA = [{"question": "capital of France", "answer": "Paris"}]


async def grade(client, rows):
    job = await asyncio.to_thread(
        client.evaluator.submit,
        metric=METRIC,
        dataset=rows,
        target=AGENT,  # expect: ES105
    )
    return job.name


async def nightly(client):
    names = await asyncio.gather(grade(client, MATH), grade(client, TRIVIA))
    return dict(zip(["math", "trivia"], names))


def main():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    loop = asyncio.new_event_loop()
    try:
        print(loop.run_until_complete(nightly(client)))
    finally:
        loop.close()


if __name__ == "__main__":
    main()
