"""Hydra overrides from YAML plus one set in code: the post-processor function itself."""

import yaml
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def strip_answer(text):
    return text.strip().lower()


def load_hydra(path="hydra.yaml"):
    with open(path) as handle:
        cfg = yaml.safe_load(handle) or {}
    cfg["postprocess"] = strip_answer  # expect: ES107
    cfg.setdefault("seed", 1234)
    return cfg


config = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=load_hydra()
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=GymAgentTaskRunner(config=config))
