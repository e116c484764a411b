"""Sampling defaults kept in a SimpleNamespace; the logger's name tags the run."""

import logging
from types import SimpleNamespace

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

log = logging.getLogger("eval.nightly")
defaults = SimpleNamespace(seed=7, temperature=0.2, max_turns=8)

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={
        "seed": defaults.seed,
        "sampling": {"temperature": defaults.temperature, "max_turns": defaults.max_turns},
        "run_tag": log.name,
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=GymAgentTaskRunner(config=config))
