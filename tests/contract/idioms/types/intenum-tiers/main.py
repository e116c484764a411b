"""Concurrency tiers as an IntEnum; the OFF tier is 0, which the config refuses."""

from enum import IntEnum

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Tier(IntEnum):
    OFF = 0
    SMALL = 2
    LARGE = 16


def runner(tier):
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        concurrency=tier,
    )
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for tier in (Tier.SMALL, Tier.LARGE, Tier.OFF):
    suite = TasksetRef(f"qa/{tier.name.lower()}")
    try:
        client.evaluator.submit(tasks=suite, target=runner(tier))  # expect: ES109
    except ValueError as exc:
        print(exc)
