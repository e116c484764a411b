"""Fixtures built from other fixtures: evaluator <- client, config <- settings."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig
from nemo_platform import NeMoPlatform


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.fixture
def evaluator(client):
    return client.evaluator


@pytest.fixture
def settings():
    return {"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}


@pytest.fixture
def config(settings):
    return GymRuntimeConfig(**settings)


def test_submit_config(evaluator, config):
    with pytest.raises(TypeError):
        evaluator.submit(tasks=TasksetRef("qa/chain"), target=config)  # expect: ES104
