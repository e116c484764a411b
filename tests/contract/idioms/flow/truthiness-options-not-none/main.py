"""Shared submit helper: `options is not None` is true for `{}` too, so the taskset call gets a config."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")


def submit(client, runner=None, rows=None, options=None):
    kwargs = {}
    if options is not None:
        kwargs["config"] = RunConfig(**options)  # expect: ES102
    if not rows:
        return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner, **kwargs)
    return client.evaluator.submit(metric=METRIC, dataset=rows, **kwargs)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit(client, runner)
submit(client, runner, rows=[], options={})
submit(client, rows=[{"answer": "4"}], options={"parallelism": 8})
