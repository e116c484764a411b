"""Submission arguments assembled key by key."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)

kw = {}
kw["tasks"] = TasksetRef("qa/mcqa")
kw["target"] = runner
client.evaluator.submit(**kw)

# Left over from the row-evaluation version of this script.
kw["metric"] = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
client.evaluator.submit(**kw)  # expect: ES101
