"""unittest-style tests: objects made in setUp, refusals checked with assertRaises."""

import unittest

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class SubmitTest(unittest.TestCase):
    def setUp(self):
        self.client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        self.runner = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml",
                                    resources_server="mcqa")
        )

    def test_submit(self):
        job = self.client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=self.runner)
        self.assertTrue(job.name)

    def test_forgot_tasks(self):
        with self.assertRaises(TypeError):
            self.client.evaluator.submit(target=self.runner)  # expect: ES103


if __name__ == "__main__":
    unittest.main()
