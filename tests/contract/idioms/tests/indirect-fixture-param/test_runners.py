"""One runner fixture for every runtime, chosen by indirect parametrization."""

from pathlib import Path

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.fixture
def runner(request):
    if request.param == "gym":
        config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
        return GymAgentTaskRunner(config=config)
    return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))


@pytest.mark.parametrize("runner", ["gym", "harbor"], indirect=True)
def test_nightly_is_submitted(client, runner):
    job = client.evaluator.submit(tasks=TasksetRef("qa/nightly"),
                                  target=runner)  # expect: ES106
    assert job.name
