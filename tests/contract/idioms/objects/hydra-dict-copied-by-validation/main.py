"""Hydra parameters assembled around the config. Validation copies the dict passed as
``hydra_params`` (not what it holds): a key added to the caller's dict afterwards never reaches
the job, one added to a nested dict does."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Sweep:
    def __init__(self, client):
        self.client = client

    def config(self, seed):
        params = {"seed": seed, "callbacks": {}}
        config = GymRuntimeConfig(
            agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
            hydra_params=params,
        )
        params["on_step"] = lambda step: step  # the config holds a copy of params
        params["callbacks"]["on_end"] = lambda result: result  # expect: ES107
        return config

    def launch(self, seed):
        runner = GymAgentTaskRunner(config=self.config(seed))
        return self.client.evaluator.submit(tasks=TasksetRef("qa/sweep"), target=runner)


Sweep(NeMoPlatform(base_url="http://localhost:8080", workspace="qa")).launch(7)
