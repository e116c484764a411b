"""Job classes: the base holds placeholders that every concrete job overrides."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class BaseJob:
    SUITE = ""  # abstract: set by subclasses
    CONCURRENCY = 0
    AGENT = "simple_agent"

    def runner(self):
        config = GymRuntimeConfig(
            agent=self.AGENT,
            agent_config=f"{self.AGENT}.yaml",
            resources_server="mcqa",
            concurrency=self.CONCURRENCY,
        )
        return GymAgentTaskRunner(config=config)

    def submit(self, client):
        return client.evaluator.submit(tasks=TasksetRef(self.SUITE), target=self.runner())


class NightlyJob(BaseJob):
    SUITE = "qa/nightly"
    CONCURRENCY = 8


class SmokeJob(BaseJob):
    SUITE = "qa/smoke"
    CONCURRENCY = 2


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for job in (NightlyJob(), SmokeJob()):
    job.submit(client)
