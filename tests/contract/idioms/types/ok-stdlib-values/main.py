"""Standard-library values converted the right way."""

import os
import uuid
from datetime import date
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RESULTS = Path("/results")

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config=str(Path("configs") / "simple_agent.yaml"),
    resources_server="mcqa",
    env_vars={
        "WORKERS": str(os.cpu_count() or 1),
        "RUN_ID": str(uuid.uuid4()),
        "OUT": os.fspath(RESULTS / "out"),
    },
    hydra_params={
        "day": date.today(),
        "out_dir": RESULTS / "rollouts",
        "workers": os.cpu_count(),
        "seeds": list(range(3)),
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
