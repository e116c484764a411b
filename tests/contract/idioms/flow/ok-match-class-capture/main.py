"""Targets normalised with match: None, runner, config (with a guard), dict, capture."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent_config": "a.yaml", "resources_server": "mcqa"}


def as_target(value):
    match value:
        case None:
            return None
        case GymAgentTaskRunner():
            return value
        case GymRuntimeConfig(num_repeats=repeats) if repeats > 1:
            print(f"{value.agent}: {repeats} repeats")
            return GymAgentTaskRunner(config=value)
        case GymRuntimeConfig() as config:
            return GymAgentTaskRunner(config=config)
        case {"agent": str(agent), **rest}:
            return GymAgentTaskRunner(config=GymRuntimeConfig(agent=agent, **rest))
        case other:
            raise TypeError(f"cannot submit {type(other).__name__}")


def submit(client, value):
    target = as_target(value)
    if target is None:
        return None
    return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=target)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit(client, None)
submit(client, GymAgentTaskRunner(config=GymRuntimeConfig(agent="simple_agent", **BASE)))
submit(client, GymRuntimeConfig(agent="tool_agent", num_repeats=3, **BASE))
submit(client, GymRuntimeConfig(agent="rag_agent", **BASE))
submit(client, {"agent": "cot_agent", **BASE})
