"""A config builder taking the concurrency and environment from its callers."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def build_config(agent, concurrency=4, **env):
    return GymRuntimeConfig(
        agent=agent,
        agent_config=f"configs/{agent}.yaml",
        resources_server="mcqa",
        concurrency=concurrency,
        env_vars=env,
    )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for config in (
    build_config("simple_agent"),
    build_config("tool_agent", concurrency=16, HF_HOME="/models/hf"),
    build_config("serial_agent", concurrency=0),  # expect: ES109
    build_config("gpu_agent", NUM_GPUS=8),  # expect: ES109
):
    client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=GymAgentTaskRunner(config=config))
