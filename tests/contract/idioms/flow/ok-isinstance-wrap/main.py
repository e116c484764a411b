"""Targets come as dicts, configs or runners; isinstance() turns each into a runner."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent_config": "a.yaml", "resources_server": "mcqa"}


def as_runner(target):
    if isinstance(target, dict):
        target = GymRuntimeConfig(**target)
    if isinstance(target, GymRuntimeConfig):
        target = GymAgentTaskRunner(config=target)
    return target


def submit(client, target):
    return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=as_runner(target))


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit(client, {"agent": "simple_agent", **BASE})
submit(client, GymRuntimeConfig(agent="tool_agent", **BASE))
submit(client, GymAgentTaskRunner(config=GymRuntimeConfig(agent="rag_agent", **BASE)))
