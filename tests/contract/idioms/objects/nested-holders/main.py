"""A pipeline reaching its client through a context object."""

from dataclasses import dataclass
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


@dataclass
class Context:
    client: NeMoPlatform
    workspace: str


class Pipeline:
    def __init__(self, ctx: Context):
        self.ctx = ctx
        self.runners = {
            "gym": GymAgentTaskRunner(
                config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="mcqa")
            ),
            "harbor": HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))),
        }

    def stage(self, name):
        tasks = TasksetRef(f"{self.ctx.workspace}/pipeline")
        return self.ctx.client.evaluator.submit(tasks=tasks, target=self.runners[name])

    def stage_harbor(self):
        return self.ctx.client.evaluator.submit(
            tasks=TasksetRef(f"{self.ctx.workspace}/terminal"),
            target=self.runners["harbor"],  # expect: ES106
        )


pipeline = Pipeline(Context(NeMoPlatform(base_url="http://localhost:8080", workspace="qa"), "qa"))
pipeline.stage("gym")
pipeline.stage_harbor()
