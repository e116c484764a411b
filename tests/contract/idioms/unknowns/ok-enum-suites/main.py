"""The release suites are an Enum; the release job submits every member."""

import enum

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Suite(enum.Enum):
    SMOKE = "qa/smoke"
    TOOLS = "qa/tool-use#v2"
    LONG_HORIZON = "qa/long-horizon"


runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for suite in Suite:
    client.evaluator.submit(tasks=TasksetRef(suite.value), target=runner)
