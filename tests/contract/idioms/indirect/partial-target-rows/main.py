"""A partial that fixes the runner, then used for a row evaluation."""

from functools import partial

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
)
with_runner = partial(client.evaluator.submit,
                      target=runner)  # expect: ES105

with_runner(tasks=TasksetRef("qa/agentic"))
em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
with_runner(metric=em, dataset=[{"answer": "4"}])
