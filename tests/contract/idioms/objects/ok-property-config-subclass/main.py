"""Evaluation profiles: the config is a property, subclasses override its parts."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Profile:
    agent = "simple_agent"

    @property
    def repeats(self) -> int:
        raise NotImplementedError

    @property
    def hydra(self) -> dict:
        return {}

    @property
    def config(self) -> GymRuntimeConfig:
        return GymRuntimeConfig(
            agent=self.agent,
            agent_config=f"{self.agent}.yaml",
            resources_server="mcqa",
            num_repeats=self.repeats,
            hydra_params=self.hydra,
        )


class Quick(Profile):
    @property
    def repeats(self) -> int:
        return 1


class Thorough(Profile):
    @property
    def repeats(self) -> int:
        return 5

    @property
    def hydra(self) -> dict:
        return {"temperature": 0.7, "seeds": [1, 2, 3]}


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for profile in (Quick(), Thorough()):
    client.evaluator.submit(
        tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=profile.config)
    )
