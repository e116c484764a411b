"""The config comes from a file; its type is declared, its content is not known."""

import json
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig
from nemo_platform import NeMoPlatform


def load_config(path: str) -> GymRuntimeConfig:
    return GymRuntimeConfig.model_validate(json.loads(Path(path).read_text()))


def submit_nightly(client: NeMoPlatform, config: GymRuntimeConfig):
    return client.evaluator.submit(tasks=TasksetRef("qa/nightly"),
                                   target=config)  # expect: ES104


submit_nightly(NeMoPlatform(workspace="qa"), load_config("agent.json"))
