"""The nightly pipeline: its production runner is a Harbor runner, replaced in tests."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)

RUNNER = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))


def submit_nightly(client):
    return client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=RUNNER)
