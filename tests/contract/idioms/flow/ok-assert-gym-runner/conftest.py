from pathlib import Path

import pytest
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
def gym_runner():
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )


@pytest.fixture
def harbor_runner():
    return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
