"""Gym or Harbor, chosen by the environment: which one is not known before run time."""

import os
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


def pick_runner() -> GymAgentTaskRunner | HarborAgentTaskRunner:
    if os.environ["RUNNER_KIND"] == "harbor":
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/agents"), target=pick_runner())
