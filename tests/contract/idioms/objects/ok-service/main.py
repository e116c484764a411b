"""A correct evaluation service: sync client, runner prepared before it is submitted."""

from __future__ import annotations

from dataclasses import dataclass, field

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclass
class EvalService:
    workspace: str
    client: NeMoPlatform = field(init=False)
    runner: GymAgentTaskRunner | None = None

    def __post_init__(self):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace=self.workspace)

    def prepare(self, concurrency: int = 4) -> None:
        config = GymRuntimeConfig(
            agent="simple_agent",
            agent_config="configs/simple_agent.yaml",
            resources_server="mcqa",
            concurrency=concurrency,
        )
        self.runner = GymAgentTaskRunner(config=config)

    def submit_agent(self):
        assert self.runner is not None
        return self.client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=self.runner)

    def submit_rows(self, rows):
        metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        return self.client.evaluator.submit(
            metric=metric, dataset=rows, config=RunConfig(parallelism=4)
        )


service = EvalService("qa")
service.prepare(concurrency=8)
service.submit_agent()
service.submit_rows([{"answer": "4"}])
