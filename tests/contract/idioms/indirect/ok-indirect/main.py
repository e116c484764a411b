"""Indirect calls written correctly."""

import functools

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
submit = client.evaluator.submit
submit(tasks="qa/smoke#v2", target=runner)

run_suite = functools.partial(submit, target=runner)
for suite in ("qa/smoke", "qa/nightly"):
    run_suite(tasks=TasksetRef(suite))

row_kw = {"metric": ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}")}
row_kw["dataset"] = [{"a": "x", "b": "x"}]
submit(**row_kw)
submit(**dict(tasks=TasksetRef("qa/smoke"), target=runner), config=None)
