"""Cached factories: one client and one runner per agent for the whole process."""

import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@functools.lru_cache(maxsize=None)
def get_client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@functools.cache
def runner_for(agent: str) -> GymAgentTaskRunner:
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa")
    )


for agent in ("simple_agent", "react_agent", "simple_agent"):
    get_client().evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner_for(agent))
get_client.cache_clear()
