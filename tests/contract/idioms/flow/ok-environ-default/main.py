"""CI job: agent and suite from the environment, with defaults; the name picks a runner."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNERS = {
    name: GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=name, agent_config=f"{name}.yaml", resources_server="mcqa")
    )
    for name in ("simple_agent", "tool_agent")
}

agent = os.environ.get("EVAL_AGENT", "simple_agent")
suite = os.environ.get("EVAL_SUITE", "qa/smoke")
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef(suite), target=RUNNERS[agent])
