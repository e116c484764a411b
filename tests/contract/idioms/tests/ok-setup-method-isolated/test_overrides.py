"""Each test gets a fresh config from setup_method; one test checks a bad value is refused."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class TestOverrides:
    def setup_method(self):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        self.config = GymRuntimeConfig(
            agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"
        )

    def test_more_workers(self):
        self.config.concurrency = 16
        runner = GymAgentTaskRunner(config=self.config)
        self.client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)

    def test_default(self):
        runner = GymAgentTaskRunner(config=self.config)
        self.client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)

    def test_hydra_extra(self):
        self.config.hydra_params["temperature"] = 0.0
        runner = GymAgentTaskRunner(config=self.config)
        assert runner.config.hydra_params == {"temperature": 0.0}
        self.client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
