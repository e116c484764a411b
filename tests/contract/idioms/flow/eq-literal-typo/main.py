"""One entry point, two modes: the agent branch compares with a misspelled literal."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
ROWS = [{"answer": "4"}]


def evaluate(client, mode, runner=None):
    if mode == "agents":
        return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner)
    return client.evaluator.submit(metric=METRIC, dataset=ROWS, target=runner)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
evaluate(client, "rows")
evaluate(client, "agents", runner)  # the nightly job still uses the old spelling
evaluate(client, "agent", runner)  # expect: ES105
