"""Hydra overrides mixing known parts with values from argv, the environment and YAML."""

import os
import sys

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

extra = yaml.safe_load(os.environ.get("HYDRA_OVERRIDES", "{}")) or {}
hydra = {
    "model": {
        "name": os.environ.get("MODEL", "llama"),
        "temperature": float(sys.argv[1]) if len(sys.argv) > 1 else 0.2,
    },
    "seeds": [int(s) for s in os.environ.get("SEEDS", "1,2").split(",")],
    "tags": sorted({"nightly", os.environ.get("TAG", "ci")}),
    **extra,
}
hydra["dataset"] = {"splits": tuple(os.environ.get("SPLITS", "dev").split(","))}
config = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=hydra
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
