"""Lazily built client and runner (functools.cached_property)."""

from functools import cached_property

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import FieldMapping
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class RetrievalEval:
    workspace = "search"

    @cached_property
    def client(self) -> NeMoPlatform:
        return NeMoPlatform(base_url="http://localhost:8080", workspace=self.workspace)

    @cached_property
    def runner(self):
        config = GymRuntimeConfig(
            agent="rag_agent", agent_config="rag.yaml", resources_server="retrieval"
        )
        return GymAgentTaskRunner(config=config)

    def run(self):
        return self.client.evaluator.submit(
            tasks=TasksetRef("search/retrieval-v2"),
            target=self.runner,
            field_mapping=FieldMapping(input="query", output="answer"),  # expect: ES102
        )


RetrievalEval().run()
