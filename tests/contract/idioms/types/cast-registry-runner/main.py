"""Runners discovered from a YAML registry; cast() tells the type checker what they are."""

from typing import cast

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import FieldMapping
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def discover() -> dict[str, object]:
    with open("runners.yaml") as handle:
        settings = yaml.safe_load(handle)
    return {
        name: GymAgentTaskRunner(config=GymRuntimeConfig(**config))
        for name, config in settings.items()
    }


runner = cast(GymAgentTaskRunner, discover()["smoke"])
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(
    tasks=TasksetRef("qa/smoke"),
    target=runner,
    field_mapping=FieldMapping(input="question", output="answer"),  # expect: ES102
)
