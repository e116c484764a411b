"""Variants as partial settings merged into a base."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}
VARIANTS = {
    "fast": {"concurrency": 16, "startup_timeout_s": 60},
    "repeated": {"num_repeats": 5},
    "serial": {
        "concurrency": 0,  # expect: ES109
    },
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for name, extra in VARIANTS.items():
    config = GymRuntimeConfig(**BASE, **extra)
    client.evaluator.submit(tasks=TasksetRef("qa/variants"), target=GymAgentTaskRunner(config=config))
