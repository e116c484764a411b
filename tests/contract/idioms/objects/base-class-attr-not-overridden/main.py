"""Job classes: one concrete job forgets to override the base's placeholder."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class BaseJob:
    SUITE = "qa/smoke"
    CONCURRENCY = 0  # placeholder: set by subclasses

    def runner(self):
        config = GymRuntimeConfig(
            agent="simple_agent",
            agent_config="a.yaml",
            resources_server="mcqa",
            concurrency=self.CONCURRENCY,  # expect: ES109
        )
        return GymAgentTaskRunner(config=config)

    def submit(self, client):
        return client.evaluator.submit(tasks=TasksetRef(self.SUITE), target=self.runner())


class NightlyJob(BaseJob):
    SUITE = "qa/nightly"
    CONCURRENCY = 8


class SmokeJob(BaseJob):
    pass


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for job in (NightlyJob(), SmokeJob()):
    job.submit(client)
