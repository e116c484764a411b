"""A team wrapper around the evaluator that drops row options from taskset submissions."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import AsyncNeMoPlatform, NeMoPlatform


def make_client(asynchronous=False):
    if asynchronous:
        return AsyncNeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


class SafeEvaluator:
    def __init__(self, evaluator):
        self._evaluator = evaluator

    def submit(self, **kwargs):
        if "tasks" in kwargs:
            for option in ("config", "prompt_template"):
                kwargs.pop(option, None)
        return self._evaluator.submit(**kwargs)


class Submitter:
    def __init__(self, client, **fixed):
        self.client = client
        self.fixed = fixed

    def __call__(self, **kwargs):
        return self.client.evaluator.submit(**{**kwargs, **self.fixed})


client = make_client()
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
tuned = RunConfig(parallelism=2)
SafeEvaluator(client.evaluator).submit(tasks=TasksetRef("qa/smoke"), target=runner, config=tuned)
Submitter(client, config=None)(tasks=TasksetRef("qa/smoke"), target=runner, config=tuned)
