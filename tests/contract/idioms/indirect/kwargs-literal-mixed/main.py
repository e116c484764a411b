"""Explicit keywords mixed with a ** dict literal in the same call."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
T = TasksetRef("ws/smoke")
R = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)

client.evaluator.submit(tasks=T, **{"target": R})
client.evaluator.submit(tasks=T, target=R, **{"prompt_template": "p"})  # expect: ES102
