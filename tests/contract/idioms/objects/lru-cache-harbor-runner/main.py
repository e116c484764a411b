"""Cached runner factory; the terminal-bench suite gets a Harbor runner."""

import functools
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


@functools.lru_cache(maxsize=8)
def runner_for(suite: str):
    if suite.endswith("terminal-bench"):
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner_for("qa/smoke"))
client.evaluator.submit(
    tasks=TasksetRef("qa/terminal-bench"),
    target=runner_for("qa/terminal-bench"),  # expect: ES106
)
