"""One test body, parametrized over the runners."""

from pathlib import Path

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

CLIENT = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.mark.parametrize(
    "runner",
    [
        GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="mcqa")
        ),
        HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))),
    ],
    ids=["gym", "harbor"],
)
def test_submit(runner):
    CLIENT.evaluator.submit(tasks=TasksetRef("qa/agents"), target=runner)  # expect: ES106
