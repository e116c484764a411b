"""Settings layered over placeholder defaults: the later layer wins in every merge spelling."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

PLACEHOLDERS = {"concurrency": 0, "num_repeats": 0}  # every profile must override them
BASE = {
    "agent": "simple_agent",
    "agent_config": "a.yaml",
    "resources_server": "mcqa",
    "concurrency": 8,
}

unpacked = GymRuntimeConfig(**{**PLACEHOLDERS, **BASE, "num_repeats": 2})
piped = GymRuntimeConfig(**(PLACEHOLDERS | BASE | {"num_repeats": 1}))
layered = dict(PLACEHOLDERS, **BASE)
layered.update(num_repeats=3)
updated = GymRuntimeConfig(**layered)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for config in (unpacked, piped, updated):
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
