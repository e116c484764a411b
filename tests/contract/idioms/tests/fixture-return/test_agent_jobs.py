"""Agent job submission tests with function-scoped fixtures."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.fixture
def runner():
    config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    return GymAgentTaskRunner(config=config)


def test_submit(client, runner):
    job = client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner)
    assert job.name


def test_submit_without_tasks_is_refused(client, runner):
    with pytest.raises(TypeError):
        client.evaluator.submit(target=runner)  # expect: ES103
