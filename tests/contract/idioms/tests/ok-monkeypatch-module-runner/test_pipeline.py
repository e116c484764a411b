"""The submission path is tested with the module's runner monkeypatched to a Gym runner."""

import pipeline
import pytest
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@pytest.fixture
def gym_runner():
    config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    return GymAgentTaskRunner(config=config)


def test_nightly_submits(monkeypatch, gym_runner):
    monkeypatch.setattr(pipeline, "RUNNER", gym_runner)
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    assert pipeline.submit_nightly(client)
