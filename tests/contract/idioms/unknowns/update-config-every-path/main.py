"""Nightly launcher: a shared parallelism setting is applied after the shape is chosen."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
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
    kwargs.update(config=RunConfig(parallelism=8))  # expect: ES102
    return client.evaluator.submit(**kwargs)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for kind in ("rows", "agent"):
    print(kind, launch(client, kind))
