"""CLI core: an unknown stage ends the program through a NoReturn helper."""

import sys
from typing import NoReturn

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig


def die(message: str) -> NoReturn:
    print(f"error: {message}", file=sys.stderr)
    raise SystemExit(2)


RUNNERS = {
    "smoke": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
}


def submit_stage(client, stage):
    runner = RUNNERS.get(stage)
    if runner is None:
        die(f"unknown stage {stage!r}")
    return client.evaluator.submit(tasks=TasksetRef(f"qa/{stage}"), target=runner)
