"""pytest.param entries with ids and marks."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

CONFIG = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")


@pytest.fixture(scope="module")
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.mark.parametrize(
    "target",
    [
        pytest.param(GymAgentTaskRunner(config=CONFIG), id="runner"),
        pytest.param(CONFIG, id="config-only", marks=pytest.mark.slow),
    ],
)
def test_submit(client, target):
    client.evaluator.submit(
        tasks=TasksetRef("qa/agents"),
        target=target,  # expect: ES104
    )
