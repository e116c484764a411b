"""Stages as an Enum, dispatched with match; assert_never() makes the dispatch exhaustive."""

import enum
from typing import assert_never

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Stage(enum.Enum):
    SMOKE = "smoke"
    NIGHTLY = "nightly"
    CANARY = "canary"


def config_for(agent, **overrides):
    return GymRuntimeConfig(
        agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa", **overrides
    )


def runner_for(stage: Stage) -> GymAgentTaskRunner:
    match stage:
        case Stage.SMOKE:
            config = config_for("simple_agent")
        case Stage.NIGHTLY:
            config = config_for("simple_agent", num_repeats=3)
        case Stage.CANARY:
            config = config_for("canary_agent", concurrency=1)
        case _:
            assert_never(stage)
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for stage in Stage:
    client.evaluator.submit(tasks=TasksetRef(f"qa/{stage.value}"), target=runner_for(stage))
