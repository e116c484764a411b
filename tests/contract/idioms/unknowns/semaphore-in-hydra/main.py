"""Async service: one semaphore bounds the tool calls, and it is handed to the runner too."""

import asyncio

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class ToolService:
    def __init__(self, limit):
        self.gate = asyncio.Semaphore(limit)

    def runner(self):
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="tool_agent",
                agent_config="tools.yaml",
                resources_server="tools",
                hydra_params={
                    "limits": {
                        "tool_gate": self.gate,  # expect: ES107
                        "max_parallel_tools": 4,
                    }
                },
            )
        )


async def main():
    service = ToolService(limit=4)
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    job = await asyncio.to_thread(
        client.evaluator.submit, tasks=TasksetRef("qa/tools"), target=service.runner()
    )
    print(job)


asyncio.run(main())
