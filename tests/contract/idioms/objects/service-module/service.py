"""The evaluation service, imported by the entry point."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


class AgentService:
    def __init__(self, workspace):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace=workspace)
        self.runners = {
            "gym": GymAgentTaskRunner(
                config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="mcqa")
            ),
            "harbor": HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))),
        }

    def submit(self, name, suite):
        return self.client.evaluator.submit(tasks=TasksetRef(suite), target=self.runners[name])

    def submit_all(self, suite):
        return [
            self.client.evaluator.submit(tasks=TasksetRef(suite),
                                         target=runner)  # expect: ES106
            for runner in self.runners.values()
        ]
