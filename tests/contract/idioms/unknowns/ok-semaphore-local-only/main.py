"""Async service: a semaphore bounds concurrent submissions; the runner gets the plain limit."""

import asyncio

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITES = ["qa/tools", "qa/smoke", "qa/regression"]


class ToolService:
    def __init__(self, limit):
        self.limit = limit
        self.gate = asyncio.Semaphore(limit)

    def runner(self):
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="tool_agent",
                agent_config="tools.yaml",
                resources_server="tools",
                hydra_params={"limits": {"max_parallel_tools": self.limit}},
            )
        )

    async def submit(self, client, suite):
        async with self.gate:
            return await asyncio.to_thread(
                client.evaluator.submit, tasks=TasksetRef(suite), target=self.runner()
            )


async def main():
    service = ToolService(limit=2)
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    print(await asyncio.gather(*(service.submit(client, s) for s in SUITES)))


asyncio.run(main())
