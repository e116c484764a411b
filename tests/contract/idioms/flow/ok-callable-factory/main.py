"""A registry of runners and runner factories; callable() entries are called first."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def simple_config(agent="simple_agent"):
    return GymRuntimeConfig(agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa")


def tool_runner():
    return GymAgentTaskRunner(config=simple_config("tool_agent"))


REGISTRY = {"simple": GymAgentTaskRunner(config=simple_config()), "tool": tool_runner}


def resolve(name):
    entry = REGISTRY[name]
    if callable(entry):
        entry = entry()
    return entry


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for name in REGISTRY:
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=resolve(name))
