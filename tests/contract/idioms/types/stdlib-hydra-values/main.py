"""hydra_params holding standard-library objects: some have a JSON form, some do not."""

import random
import threading
import uuid
from datetime import datetime, timedelta
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

OUTPUT = Path("/results") / "nightly"

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={
        "output_dir": OUTPUT / "rollouts",
        "run_id": uuid.uuid4(),
        "started": datetime.now(),
        "budget": timedelta(minutes=30),
        "rng": random.Random(1234),  # expect: ES107
        "write_lock": threading.Lock(),  # expect: ES107
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=GymAgentTaskRunner(config=config))
