"""Slow submission tests share one mark object."""

from pathlib import Path

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.jobs.runner_targets import UnsubmittableRunnerError
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

SLOW = pytest.mark.timeout(10)


@SLOW
def test_harbor_refused():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    runner = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
    with pytest.raises(UnsubmittableRunnerError):
        client.evaluator.submit(tasks=TasksetRef("qa/tb"), target=runner)  # expect: ES106
