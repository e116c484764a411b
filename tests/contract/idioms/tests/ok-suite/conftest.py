"""Fixtures of a correct suite."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@pytest.fixture(scope="session")
def client():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    yield client
    client.close()


@pytest.fixture
def smoke():
    return TasksetRef("qa/smoke")


@pytest.fixture(params=["simple_agent", "tool_agent"])
def runner(request):
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=request.param, agent_config="a.yaml", resources_server="mcqa")
    )


@pytest.fixture
def metric():
    return ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
