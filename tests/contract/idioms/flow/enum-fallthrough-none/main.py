"""Stages as an Enum: a stage added later has no branch, so its runner stays None."""

import enum

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


def runner_for(stage):
    runner = None
    if stage is Stage.SMOKE:
        runner = GymAgentTaskRunner(config=config_for("simple_agent"))
    elif stage is Stage.NIGHTLY:
        runner = GymAgentTaskRunner(config=config_for("simple_agent", num_repeats=3))
    return runner


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner_for(Stage.SMOKE))
client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=runner_for(Stage.NIGHTLY))
client.evaluator.submit(tasks=TasksetRef("qa/canary"), target=runner_for(Stage.CANARY))  # expect: ES104
