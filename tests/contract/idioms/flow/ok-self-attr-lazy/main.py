"""A service that builds its runner lazily: `if self.runner is None: self.runner = ...`."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class AgentEvalService:
    def __init__(self, client, agent):
        self.client = client
        self.agent = agent
        self.runner = None

    def build_runner(self):
        config = GymRuntimeConfig(
            agent=self.agent, agent_config=f"{self.agent}.yaml", resources_server="mcqa"
        )
        return GymAgentTaskRunner(config=config)

    def submit(self, suite):
        if self.runner is None:
            self.runner = self.build_runner()
        return self.client.evaluator.submit(tasks=TasksetRef(suite), target=self.runner)


service = AgentEvalService(NeMoPlatform(base_url="http://localhost:8080", workspace="qa"), "simple_agent")
service.submit("qa/smoke")
service.submit("qa/nightly")
