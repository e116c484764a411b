"""Nightly: one job per stored taskset of the reasoning and data suites (20 of them)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITES = [
    "qa/arith",
    "qa/algebra",
    "qa/geometry",
    "qa/calculus",
    "qa/probability",
    "qa/statistics",
    "qa/logic",
    "qa/sets",
    "qa/graphs",
    "qa/trees",
    "qa/sorting",
    "qa/search",
    "qa/strings",
    "qa/regex",
    "qa/sql",
    "qa/json",
    "qa/yaml",
    "qa/csv",
    "qa/long context",  # expect: ES108
    "qa/tool-use",
]

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
for suite in SUITES:
    client.evaluator.submit(tasks=TasksetRef(suite), target=runner)
