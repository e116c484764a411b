"""Defaults merged under a JSON settings file (dict | dict): the file wins."""

import json
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

DEFAULTS = {
    "agent": "simple_agent",
    "agent_config": "a.yaml",
    "resources_server": "mcqa",
    "concurrency": 0,  # placeholder, the settings file sets it
}

settings = DEFAULTS | json.loads((Path(__file__).parent / "settings.json").read_text())
config = GymRuntimeConfig(**settings)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
