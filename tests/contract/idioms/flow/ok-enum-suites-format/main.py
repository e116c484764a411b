"""Suites are an Enum; their references are built with % and str.format in loops, correctly."""

import enum

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


class Suite(enum.Enum):
    SMOKE = "qa/smoke"
    NIGHTLY = "qa/nightly"


WORKSPACES = {"weekly": "qa", "canary": "staging"}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
for suite in Suite:
    client.evaluator.submit(tasks=TasksetRef(suite.value), target=runner)
for name, workspace in WORKSPACES.items():
    client.evaluator.submit(tasks=TasksetRef("%s/%s" % (workspace, name)), target=runner)
    client.evaluator.submit(tasks=TasksetRef("{}/{}".format(workspace, name)), target=runner)
