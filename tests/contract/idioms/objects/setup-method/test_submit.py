"""Submission tests that build their objects in setup_method."""

from pathlib import Path

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.jobs.runner_targets import UnsubmittableRunnerError
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


class TestTerminalBench:
    def setup_method(self):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        self.tasks = TasksetRef("qa/terminal-bench")
        self.harbor = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
        self.gym = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="tb_agent", agent_config="tb.yaml", resources_server="tb")
        )

    def test_gym_runner_is_submitted(self):
        job = self.client.evaluator.submit(tasks=self.tasks, target=self.gym)
        assert job.name

    def test_harbor_runner_is_refused(self):
        with pytest.raises(UnsubmittableRunnerError):
            self.client.evaluator.submit(tasks=self.tasks,
                                         target=self.harbor)  # expect: ES106
