"""Modes grouped with `mode in (...)`: "replay" landed in the agent group, which has no runner for it."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

METRIC = ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
RUNNERS = {"agent": RUNNER, "taskset": RUNNER}


def submit_mode(client, mode):
    if mode in ("rows", "offline"):
        return client.evaluator.submit(metric=METRIC, dataset=[{"answer": "4"}])
    if mode in ("agent", "taskset", "replay"):
        runner = RUNNERS.get(mode)
        return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner)  # expect: ES104
    raise ValueError(mode)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for mode in ("rows", "offline", "replay", "agent", "taskset"):
    submit_mode(client, mode)
