"""One helper for both shapes; the conditional tests the parallelism, not the shape."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")


def submit(client, runner=None, rows=None, parallelism=8):
    config = RunConfig(parallelism=parallelism) if parallelism else None
    if rows:
        return client.evaluator.submit(metric=METRIC, dataset=rows, config=config)
    return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner, config=config)  # expect: ES102


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit(client, runner, parallelism=0)
submit(client, rows=[{"answer": "4"}])
submit(client, runner)
