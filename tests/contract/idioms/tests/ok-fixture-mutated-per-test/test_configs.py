"""Tests that tweak a function-scoped config fixture: each gets a new one."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.fixture
def config():
    return GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")


def test_with_seed(client, config):
    config.hydra_params["seed"] = 7
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))


def test_env(client, config):
    config.env_vars["LOG_LEVEL"] = "debug"
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))


def test_plain(client, config):
    assert config.hydra_params == {}
    assert config.env_vars == {}
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
