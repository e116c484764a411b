"""Root fixtures: a Gym runner by default."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.fixture
def tasks():
    return TasksetRef("qa/terminal")


@pytest.fixture
def runner():
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="tb_agent", agent_config="tb.yaml", resources_server="tb")
    )
