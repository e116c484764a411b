"""A fully bound taskset submission that later also gets a metric."""

from functools import partial

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
)
nightly = partial(client.evaluator.submit, tasks=TasksetRef("qa/nightly"), target=runner)

nightly()
em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
nightly(metric=em)  # expect: ES101
