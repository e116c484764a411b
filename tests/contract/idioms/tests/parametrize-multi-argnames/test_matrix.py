"""Several argnames in one parametrize, as a table."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

QA = GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
TOOLS = GymRuntimeConfig(agent="tool_agent", agent_config="t.yaml", resources_server="tools")


@pytest.mark.parametrize(
    ("suite", "target"),
    [
        (TasksetRef("qa/mcqa"), GymAgentTaskRunner(config=QA)),
        (TasksetRef("qa/tools"), TOOLS),
    ],
)
def test_matrix(suite, target):
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    client.evaluator.submit(tasks=suite, target=target)  # expect: ES104
