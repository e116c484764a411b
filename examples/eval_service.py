"""Evaluation service of the agents team: one object owns the client, the suites and the runners;
the scheduler calls its methods.

Run with ``python eval_service.py`` (workspace from ``NMP_WORKSPACE``, default ``qa``).
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, FieldMapping, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import AsyncNeMoPlatform, NeMoPlatform


class TeamPlatform(NeMoPlatform):
    """Our client: workspace from the environment, no retries (the scheduler retries)."""

    def __init__(self) -> None:
        super().__init__(workspace=os.environ.get("NMP_WORKSPACE", "qa"), max_retries=0)


@dataclass
class Suite:
    name: str
    tasks: TasksetRef
    agent: str = "simple_agent"
    concurrency: int = 4


@dataclass
class EvalService:
    suites: list[Suite] = field(
        default_factory=lambda: [
            Suite("mcqa", TasksetRef("qa/mcqa-nightly")),
            Suite("tools", TasksetRef("qa/tool-use"), agent="tool_agent", concurrency=8),
        ]
    )
    harbor_jobs: Path = Path("harbor-runs")

    @cached_property
    def client(self) -> TeamPlatform:
        return TeamPlatform()

    @property
    def evaluator(self):
        return self.client.evaluator

    def config_for(self, suite: Suite) -> GymRuntimeConfig:
        return GymRuntimeConfig(
            agent=suite.agent,
            agent_config=f"configs/{suite.agent}.yaml",
            resources_server="mcqa",
            concurrency=suite.concurrency,
            env_vars={"HF_HOME": "/models/hf"},
        )

    def runner_for(self, suite: Suite) -> GymAgentTaskRunner:
        return GymAgentTaskRunner(config=self.config_for(suite))

    def nightly(self):
        return [self.evaluator.submit(tasks=s.tasks, target=self.runner_for(s)) for s in self.suites]

    def tuned(self, suite: Suite):
        # Copied from the row-evaluation service: a taskset run is configured by its runner.
        return self.evaluator.submit(
            tasks=suite.tasks,
            target=self.runner_for(suite),
            config=RunConfig(parallelism=16),  # expect: ES102
        )

    def rerun(self, suite: Suite):
        # The config, not a runner built from it.
        return self.evaluator.submit(tasks=suite.tasks,
                                     target=self.config_for(suite))  # expect: ES104

    def terminal_bench(self):
        harbor = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=self.harbor_jobs))
        return self.evaluator.submit(tasks=TasksetRef("qa/terminal-bench"),
                                     target=harbor)  # expect: ES106

    def score_rows(self, suite: Suite, rows: list[dict[str, str]]):
        metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
        return self.client.evaluator.submit(
            metric=metric,
            dataset=rows,
            target=self.runner_for(suite),  # expect: ES105
            field_mapping=FieldMapping(input="question"),
        )


class Canary:
    """Prepared in two steps by the scheduler: the runner starts as None."""

    def __init__(self, service: EvalService) -> None:
        self.service = service
        self.runner: GymAgentTaskRunner | None = None

    def prepare(self) -> None:
        self.runner = self.service.runner_for(Suite("canary", TasksetRef("qa/canary")))

    def launch(self):
        return self.service.evaluator.submit(tasks=TasksetRef("qa/canary"), target=self.runner)


class AsyncScorer:
    """The async client scores rows; it cannot run a taskset in this SDK release."""

    def __init__(self, runner: GymAgentTaskRunner) -> None:
        self.client = AsyncNeMoPlatform(workspace=os.environ.get("NMP_WORKSPACE", "qa"))
        self.runner = runner

    async def agent_run(self):
        return await self.client.evaluator.submit(tasks=TasksetRef("qa/mcqa"),  # expect: ES103
                                                  target=self.runner)


def main() -> None:
    service = EvalService()
    service.nightly()
    tools = service.suites[1]
    service.tuned(tools)
    service.rerun(tools)
    service.terminal_bench()
    service.score_rows(service.suites[0], [{"question": "2+2?", "answer": "4"}])
    canary = Canary(service)
    canary.prepare()
    canary.launch()
    asyncio.run(AsyncScorer(service.runner_for(tools)).agent_run())


if __name__ == "__main__":
    main()
