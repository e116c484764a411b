"""Modes grouped with `mode in (...)`: row modes never look at the runner table."""

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
    if mode in ("rows", "offline", "replay"):
        return client.evaluator.submit(metric=METRIC, dataset=[{"answer": "4"}])
    if mode in ("agent", "taskset"):
        runner = RUNNERS.get(mode)
        return client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner)
    raise ValueError(mode)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for mode in ("rows", "offline", "replay", "agent", "taskset"):
    submit_mode(client, mode)
