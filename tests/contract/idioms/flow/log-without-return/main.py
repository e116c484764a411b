"""Nightly submitter: looks the agent's runner up by name, logs when it is missing."""

import logging

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

log = logging.getLogger("nightly")
NIGHTLY = TasksetRef("qa/nightly")


def gym_runner(agent):
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa")
    )


RUNNERS = {"simple_agent": gym_runner("simple_agent"), "tool_agent": gym_runner("tool_agent")}


def find_runner(name):
    for known, runner in RUNNERS.items():
        if known == name:
            return runner
    return None


def submit_nightly(client, name):
    runner = find_runner(name)
    if runner is None:
        log.warning("no runner registered for %s", name)
    return client.evaluator.submit(tasks=NIGHTLY, target=runner)  # expect: ES104


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for name in ("simple_agent", "tool_agent", "rag_agent"):
    submit_nightly(client, name)
