"""A table of configs, submitted by name."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig
from nemo_platform import NeMoPlatform

CONFIGS = {
    "small": GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"),
    "large": GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=32
    ),
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for name, config in CONFIGS.items():
    client.evaluator.submit(tasks=TasksetRef(f"qa/{name}-suite"),
                            target=config)  # expect: ES104
