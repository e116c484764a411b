"""The base job: placeholders every concrete job sets."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


class BaseJob:
    SUITE = ""  # set by each job
    REPEATS = 0  # set by each job

    def runner(self):
        config = GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            num_repeats=self.REPEATS,
        )
        return GymAgentTaskRunner(config=config)

    def submit(self, client):
        return client.evaluator.submit(tasks=TasksetRef(self.SUITE), target=self.runner())
