"""env_vars computed with the standard library: the values must be strings."""

import os
import uuid
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    env_vars={
        "DATA_DIR": Path(os.environ["DATA_ROOT"]) / "tasks",  # expect: ES109
        "WORKERS": os.cpu_count(),  # expect: ES109
        "RUN_ID": uuid.uuid4(),  # expect: ES109
        "HOME_DIR": str(Path.home()),
        "LOG_LEVEL": os.environ.get("LOG_LEVEL", "info"),
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
