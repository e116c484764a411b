"""An asyncio service that submits through the sync client in a worker thread."""

import asyncio

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


async def prepare(agent):
    await asyncio.sleep(0)
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa")
    )


def submit_blocking(client, runner):
    return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)


async def main():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    runners = await asyncio.gather(prepare("simple_agent"), prepare("react_agent"))
    for runner in runners:
        await asyncio.to_thread(submit_blocking, client, runner)


asyncio.run(main())
