"""A generic job runner that looks the method up by name; one job passes both shapes."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
metric = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")

getattr(client.evaluator, "submit")(tasks="qa/nightly#v2", target=runner)
getattr(client.evaluator, "submit")(  # expect: ES101
    tasks=TasksetRef("qa/smoke"), target=runner, metric=metric
)
