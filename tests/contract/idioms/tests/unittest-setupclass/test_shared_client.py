"""A TestCase sharing one client and runner through setUpClass."""

import unittest

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import FieldMapping
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class SharedClientTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
        cls.runner = GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="rag_agent", agent_config="rag.yaml",
                                    resources_server="retrieval")
        )

    def test_field_mapping_is_refused(self):
        with self.assertRaises(TypeError):
            self.client.evaluator.submit(
                tasks=TasksetRef("search/retrieval"),
                target=self.runner,
                field_mapping=FieldMapping(input="query"),  # expect: ES102
            )
