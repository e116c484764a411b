"""Parametrized tests: the call in the test sends one target per parameter."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.mark.parametrize("agent", ["simple_agent", "tool_agent"])
def test_agent_job(agent):
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=agent, agent_config="a.yaml", resources_server="mcqa")
    )
    job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
    assert job is not None
