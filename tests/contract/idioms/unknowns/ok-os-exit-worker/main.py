"""Submission worker: the supervisor starts it with EVAL_WORKER=1, then it hard-exits."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)


def run_once():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=RUNNER)


if os.environ.get("EVAL_WORKER") == "1":
    run_once()
    os._exit(0)
    # The old retry path, unreachable since the worker exits above.
    retry_suite = TasksetRef("qa/smoke#")

print("local run:", run_once())
