"""Runners built by a list comprehension, then submitted with a leftover option."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

AGENTS = ["simple_agent", "tool_agent", "rag_agent"]
configs = [
    GymRuntimeConfig(agent=agent, agent_config=f"configs/{agent}.yaml", resources_server="mcqa")
    for agent in AGENTS
]
runners = [GymAgentTaskRunner(config=config) for config in configs]

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for runner in runners:
    client.evaluator.submit(
        tasks=TasksetRef("qa/agents"),
        target=runner,
        config=RunConfig(parallelism=4),  # expect: ES102
    )
