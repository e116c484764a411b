"""Stages read from YAML: what each stage holds is only known when the file is read."""

import sys

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

with open("stages.yaml") as handle:
    STAGES = yaml.safe_load(handle)


def runner_for(stage):
    settings = STAGES.get(stage)
    if not settings:
        sys.exit(f"stage {stage!r} is not configured")
    return GymAgentTaskRunner(config=GymRuntimeConfig(**settings))


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for stage in ("smoke", "nightly"):
    client.evaluator.submit(tasks=TasksetRef(f"qa/{stage}"), target=runner_for(stage))
