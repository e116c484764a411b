"""Async evaluation service: the blocking SDK call runs in a worker thread."""

import asyncio

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITES = ["qa/smoke", "qa/regression", "qa/long-horizon#v4"]
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)


async def submit_suite(client, suite, run_config=None):
    return await asyncio.to_thread(
        client.evaluator.submit,
        tasks=TasksetRef(suite),
        target=RUNNER,
        config=run_config,
    )


async def main():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    jobs = await asyncio.gather(*(submit_suite(client, s) for s in SUITES))
    print(jobs)


asyncio.run(main())
