"""Seeds parsed from the environment with map(): unknown items, but a one-shot iterator."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

hydra = {
    "model": {"name": os.environ.get("MODEL", "llama")},
    "seeds": map(int, os.environ.get("SEEDS", "1,2").split(",")),  # expect: ES107
    "splits": os.environ.get("SPLITS", "dev").split(","),
}
config = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=hydra
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
