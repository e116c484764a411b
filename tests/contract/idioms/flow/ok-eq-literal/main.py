"""One entry point, two modes: `mode == "agent"` runs the suite, anything else scores rows."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
ROWS = [{"answer": "4"}]


def evaluate(client, mode, runner):
    if mode == "agent":
        return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner)
    if mode != "rows":
        raise ValueError(f"unknown mode {mode!r}")
    return client.evaluator.submit(metric=METRIC, dataset=ROWS)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
evaluate(client, "agent", runner)
evaluate(client, "rows", runner)
evaluate(client, "rows", None)
