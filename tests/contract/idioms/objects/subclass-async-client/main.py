"""An async team client; the runner goes through it like everything else."""

import asyncio

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import AsyncNeMoPlatform


class TeamAsyncPlatform(AsyncNeMoPlatform):
    def __init__(self):
        super().__init__(base_url="http://localhost:8080", workspace="agents")

    async def submit_runner(self, runner):
        return await self.evaluator.submit(tasks=TasksetRef("agents/smoke"),  # expect: ES103
                                           target=runner)


async def main():
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
    await TeamAsyncPlatform().submit_runner(runner)


asyncio.run(main())
