"""A sweep over the team's runners, defaults built by factories."""

from dataclasses import dataclass, field
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


def gym_runner():
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )


def harbor_runner():
    return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("harbor-runs")))


@dataclass
class Sweep:
    suite: TasksetRef = field(default_factory=lambda: TasksetRef("qa/agentic"))
    client: NeMoPlatform = field(default_factory=lambda: NeMoPlatform(workspace="qa"))
    runners: list = field(default_factory=lambda: [gym_runner(), harbor_runner()])

    def run(self):
        return [
            self.client.evaluator.submit(tasks=self.suite,
                                         target=runner)  # expect: ES106
            for runner in self.runners
        ]


Sweep().run()
