"""Sampling settings layered with ChainMap: per-suite overrides over team defaults, flattened."""

from collections import ChainMap

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

TEAM_DEFAULTS = {"temperature": 0.7, "top_p": 0.95, "max_tokens": 1024}
SMOKE_OVERRIDES = {"temperature": 0.0}

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={
        "policy": {
            "sampling": dict(ChainMap(SMOKE_OVERRIDES, TEAM_DEFAULTS)),
            "max_steps": 8,
        }
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
