"""Suites as classes used without instances: classmethods read the class's settings."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Suite:
    NAME = ""  # set by each suite
    REPEATS = 0  # set by each suite

    @classmethod
    def runner(cls):
        config = GymRuntimeConfig(
            agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", num_repeats=cls.REPEATS
        )
        return GymAgentTaskRunner(config=config)

    @classmethod
    def submit(cls, client):
        return client.evaluator.submit(tasks=TasksetRef(cls.NAME), target=cls.runner())

    def describe(self):
        return f"{type(self).NAME} x{self.__class__.REPEATS}"


class Smoke(Suite):
    NAME = "qa/smoke"
    REPEATS = 1


class Nightly(Suite):
    NAME = "qa/nightly"
    REPEATS = 3


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite in (Smoke, Nightly):
    suite.submit(client)
    print(suite().describe())
