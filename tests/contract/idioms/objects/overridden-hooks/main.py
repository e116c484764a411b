"""Suites as classes: subclasses override the hooks the base class submits with."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Suite:
    taskset = "qa/smoke"

    def options(self):
        return {}

    def hydra(self):
        return {"seed": 7}

    def runner(self):
        config = GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            hydra_params=self.hydra(),
        )
        return GymAgentTaskRunner(config=config)

    def submit(self, client):
        return client.evaluator.submit(
            tasks=TasksetRef(self.taskset), target=self.runner(), **self.options()
        )


class TunedSuite(Suite):
    def options(self):
        return {"config": RunConfig(parallelism=8)}  # expect: ES102


class TracedSuite(Suite):
    def hydra(self):
        return {"seed": 7, "on_rollout": print}  # expect: ES107


class SampledSuite(Suite):
    def hydra(self):
        params = super().hydra()
        params["sampling"] = {"temperature": 0.2, "top_p": 0.9}
        return params


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite in (Suite(), TunedSuite(), TracedSuite(), SampledSuite()):
    try:
        suite.submit(client)
    except TypeError as exc:
        print(f"{type(suite).__name__} refused: {exc}")
