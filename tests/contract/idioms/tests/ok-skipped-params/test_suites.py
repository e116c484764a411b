"""Suites per runtime; the cases that cannot be submitted yet are skipped, not deleted."""

from pathlib import Path

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

GYM = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
HARBOR = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
PENDING = pytest.mark.skip(reason="not submittable yet: runs in-process in test_local.py")


@pytest.mark.parametrize(
    ("runner", "options"),
    [
        pytest.param(GYM, {}, id="gym"),
        pytest.param(HARBOR, {}, id="harbor", marks=PENDING),
        pytest.param(GYM, {"config": RunConfig(parallelism=4)}, id="tuned", marks=PENDING),
    ],
)
def test_suite_submits(runner, options):
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    assert client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner, **options)
