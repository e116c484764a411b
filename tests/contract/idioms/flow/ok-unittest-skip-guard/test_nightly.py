"""unittest suite: tests without a runner skip themselves (skipTest raises)."""

import unittest

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNERS = {
    "simple_agent": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
}


class NightlyTest(unittest.TestCase):
    agent = "simple_agent"

    def setUp(self):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        self.runner = RUNNERS.get(self.agent)

    def test_nightly(self):
        if self.runner is None:
            self.skipTest(f"no runner for {self.agent}")
        job = self.client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=self.runner)
        self.assertTrue(job.name)


class RagNightlyTest(NightlyTest):
    agent = "rag_agent"


if __name__ == "__main__":
    unittest.main()
