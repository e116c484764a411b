"""CLI core: the error helper was meant to end the program but only prints."""

import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


def report_error(message):
    print(f"error: {message}", file=sys.stderr)
    return 2


RUNNERS = {
    "smoke": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
}


def submit_stage(client, stage):
    runner = RUNNERS.get(stage)
    if runner is None:
        report_error(f"unknown stage {stage!r}")
    return client.evaluator.submit(tasks=TasksetRef(f"qa/{stage}"), target=runner)  # expect: ES104
