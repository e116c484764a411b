"""Job objects: the base's __init__ sets placeholders, each subclass's __init__ the real values."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class BaseJob:
    def __init__(self):
        self.suite = ""
        self.workers = 0

    def runner(self):
        config = GymRuntimeConfig(
            agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=self.workers
        )
        return GymAgentTaskRunner(config=config)

    def submit(self, client):
        return client.evaluator.submit(tasks=TasksetRef(self.suite), target=self.runner())


class NightlyJob(BaseJob):
    def __init__(self):
        super().__init__()
        self.suite = "qa/nightly"
        self.workers = 8


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
NightlyJob().submit(client)
