"""One helper for both shapes; the row config is chosen with a conditional expression."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")


def submit(client, runner=None, rows=None, parallelism=8):
    config = RunConfig(parallelism=parallelism) if rows else None
    if rows:
        return client.evaluator.submit(metric=METRIC, dataset=rows, config=config)
    return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner, config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit(client, runner)
submit(client, rows=[{"answer": "4"}])
submit(client, runner if runner.config.concurrency > 1 else None, rows=[])
