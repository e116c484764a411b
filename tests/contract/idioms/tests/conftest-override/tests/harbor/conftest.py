"""The Harbor tests override the runner fixture."""

from pathlib import Path

import pytest
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)


@pytest.fixture
def runner():
    return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("harbor-runs")))
