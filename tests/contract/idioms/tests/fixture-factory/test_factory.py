"""A fixture returning a factory; tests build the runner variants they need."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
from pydantic import ValidationError

BASE = {"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}


@pytest.fixture
def make_runner():
    def factory(**overrides):
        return GymAgentTaskRunner(config=GymRuntimeConfig(**{**BASE, **overrides}))

    return factory


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


def test_wide_runner(client, make_runner):
    client.evaluator.submit(tasks=TasksetRef("qa/wide"), target=make_runner(concurrency=64))


def test_no_concurrency(make_runner):
    with pytest.raises(ValidationError):
        make_runner(concurrency=0)  # expect: ES109
