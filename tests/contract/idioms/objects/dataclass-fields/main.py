"""A submission described by a dataclass, filled in by the caller."""

from dataclasses import dataclass

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclass
class AgentSubmission:
    client: NeMoPlatform
    runner: GymAgentTaskRunner
    suite: str = "qa/mcqa"
    metric: ExactMatchMetric | None = None

    def submit(self):
        return self.client.evaluator.submit(  # expect: ES101
            tasks=TasksetRef(self.suite),
            target=self.runner,
            metric=self.metric,
        )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
AgentSubmission(client, runner).submit()
# The metric of the row evaluation was copied into the agent submission too.
em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
AgentSubmission(client, runner, suite="qa/mcqa-hard", metric=em).submit()
