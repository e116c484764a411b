"""Suites and their pinned revisions; references are built with % and str.format."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

WORKSPACE = "qa"
PINNED = {"smoke": "v3", "tools": "v12", "long-horizon": "rc_1"}
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace=WORKSPACE)
for name, tag in PINNED.items():
    pinned = TasksetRef("%s/%s#%s" % (WORKSPACE, name, tag))
    client.evaluator.submit(tasks=pinned, target=runner)
    client.evaluator.submit(tasks="{}/{}".format(WORKSPACE, name), target=runner)
