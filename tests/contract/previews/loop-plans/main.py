"""A sweep over plans: the loop's call sends one target per plan."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

PLANS = [
    {"agent": "simple_agent", "concurrency": 2},
    {"agent": "tool_agent", "concurrency": 8},
    {"agent": "react_agent", "concurrency": 4, "startup_timeout_s": 120},
]

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for plan in PLANS:
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent_config="a.yaml", resources_server="mcqa", **plan)
    )
    client.evaluator.submit(tasks=TasksetRef("qa/sweep"), target=runner)
