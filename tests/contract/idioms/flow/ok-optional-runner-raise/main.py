"""A service whose runner is configured later: submit() raises until configure() ran."""

from typing import Optional

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class NotConfigured(RuntimeError):
    pass


class EvalService:
    def __init__(self, client: NeMoPlatform) -> None:
        self.client = client
        self.runner: Optional[GymAgentTaskRunner] = None

    def configure(self, agent: str) -> None:
        config = GymRuntimeConfig(agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa")
        self.runner = GymAgentTaskRunner(config=config)

    def submit(self, suite: str):
        runner = self.runner
        if runner is None:
            raise NotConfigured("call configure() first")
        return self.client.evaluator.submit(tasks=TasksetRef(suite), target=runner)


service = EvalService(NeMoPlatform(base_url="http://localhost:8080", workspace="qa"))
try:
    service.submit("qa/smoke")
except NotConfigured as exc:
    print(exc)
service.configure("simple_agent")
service.submit("qa/smoke")
