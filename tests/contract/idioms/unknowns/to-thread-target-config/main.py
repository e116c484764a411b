"""Async worker: one module-level client; the runner's config is passed as the target."""

import asyncio

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)


async def main():
    job = await asyncio.to_thread(
        client.evaluator.submit,
        tasks=TasksetRef("qa/smoke"),
        target=RUNNER.config,  # expect: ES104
    )
    print(job)


asyncio.run(main())
