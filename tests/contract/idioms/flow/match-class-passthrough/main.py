"""Targets normalised with match: configs fall into the capture case and pass through as they are."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent_config": "a.yaml", "resources_server": "mcqa"}


def as_target(value):
    match value:
        case None:
            return None
        case {"agent": str(agent), **rest}:
            return GymAgentTaskRunner(config=GymRuntimeConfig(agent=agent, **rest))
        case GymRuntimeConfig(num_repeats=repeats) if repeats > 1:
            return GymAgentTaskRunner(config=value)
        case other:
            return other


def submit(client, value):
    target = as_target(value)
    if target is None:
        return None
    return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=target)  # expect: ES104


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit(client, None)
submit(client, GymAgentTaskRunner(config=GymRuntimeConfig(agent="simple_agent", **BASE)))
submit(client, GymRuntimeConfig(agent="tool_agent", num_repeats=3, **BASE))
submit(client, GymRuntimeConfig(agent="rag_agent", **BASE))
submit(client, {"agent": "cot_agent", **BASE})
