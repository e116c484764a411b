"""Per-suite hydra params merged over the defaults with |; one brings a callback."""

import logging

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

log = logging.getLogger("evals")
DEFAULTS = {"temperature": 0.0, "max_tokens": 256}
PER_SUITE = {
    "qa/smoke": {},
    "qa/nightly": {"max_tokens": 1024, "on_rollout": log.info},  # expect: ES107
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite, extra in PER_SUITE.items():
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params=DEFAULTS | extra,
    )
    client.evaluator.submit(tasks=TasksetRef(suite), target=GymAgentTaskRunner(config=config))
