"""Typed helpers fed from a settings file: Optional values that happen to be None."""

from __future__ import annotations

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def submit(
    client: NeMoPlatform,
    runner: GymAgentTaskRunner | None,
    run_config: RunConfig | None,
    tasks: str | TasksetRef,
):
    return client.evaluator.submit(tasks=tasks, target=runner, config=run_config)


with open("settings.yaml") as handle:
    settings = yaml.safe_load(handle)

runner = GymAgentTaskRunner(config=GymRuntimeConfig(**settings["runner"]))
run_config = RunConfig(**settings["rows"]) if settings.get("rows") else None
submit(NeMoPlatform(base_url="http://localhost:8080", workspace="qa"), runner, run_config,
       settings["tasks"])
