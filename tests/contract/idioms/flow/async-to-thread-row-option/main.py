"""An async service runs the synchronous taskset submit in a thread; it passes a row option."""

import asyncio
import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class EvalService:
    def __init__(self):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        self.runner = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
        )

    async def nightly(self):
        return await asyncio.to_thread(
            self.client.evaluator.submit,
            tasks=TasksetRef("qa/nightly"),
            target=self.runner,
            config=RunConfig(parallelism=8),  # expect: ES102
        )

    async def smoke(self):
        loop = asyncio.get_running_loop()
        send = functools.partial(
            self.client.evaluator.submit, tasks=TasksetRef("qa smoke"), target=self.runner  # expect: ES108
        )
        return await loop.run_in_executor(None, send)


async def main():
    service = EvalService()
    for job in (service.nightly(), service.smoke()):
        try:
            await job
        except Exception as error:
            print(type(error).__name__, error)


asyncio.run(main())
