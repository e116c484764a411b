"""as_runner() accepts a runner, a config or a settings dict (functools.singledispatch)."""

from functools import singledispatch

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@singledispatch
def as_runner(value):
    return value  # already a runner


@as_runner.register
def _(value: GymRuntimeConfig):
    return GymAgentTaskRunner(config=value)


@as_runner.register
def _(value: dict):
    return GymAgentTaskRunner(config=GymRuntimeConfig(**value))


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
settings = {"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}
config = GymRuntimeConfig(**settings)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=as_runner(config))
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=as_runner(settings))
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=as_runner(as_runner(config)))
