"""Nightly launcher: the row sweep and the agent suite share one submit call."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

ROWS = [{"question": "2+2", "answer": "4"}, {"question": "3+3", "answer": "6"}]
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)


def launch(client, kind):
    kwargs = {}
    if kind == "rows":
        kwargs.update(
            metric=ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}"),
            dataset=ROWS,
        )
    else:
        kwargs.update(tasks=TasksetRef("qa/mcqa-nightly"), target=RUNNER)
    return client.evaluator.submit(**kwargs)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for kind in ("rows", "agent"):
    print(kind, launch(client, kind))
