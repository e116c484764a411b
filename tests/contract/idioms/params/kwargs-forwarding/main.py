"""A thin wrapper forwarding everything to submit()."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


def submit(**kwargs):
    print("submitting", sorted(kwargs))
    return client.evaluator.submit(**kwargs)  # expect: ES101


runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
em = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
submit(tasks=TasksetRef("qa/mcqa"), target=runner)
submit(metric=em, dataset=[{"answer": "4"}])
submit(tasks=TasksetRef("qa/mcqa"), target=runner, metric=em)
