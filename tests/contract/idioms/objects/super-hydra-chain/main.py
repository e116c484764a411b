"""Hydra overrides built up along a class chain with super(); the last layer adds a hook."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Base:
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


class WithSampling(Base):
    def hydra(self):
        params = super().hydra()
        params["sampling"] = {"temperature": 0.2, "top_p": 0.9}
        return params


class WithHooks(WithSampling):
    def hydra(self):
        params = super().hydra()
        params["hooks"] = [print]  # expect: ES107
        return params


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite in (WithSampling(), WithHooks()):
    try:
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=suite.runner())
    except TypeError as exc:
        print(exc)
