"""Runner lookup by name (the table is filled at import time from the environment)."""

import os

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

_TABLE = {}


def register(name, **settings):
    _TABLE[name] = GymAgentTaskRunner(config=GymRuntimeConfig(**settings))


def by_name(name):
    return _TABLE[name]


register(
    "qa",
    agent=os.environ.get("QA_AGENT", "qa_agent"),
    agent_config="qa.yaml",
    resources_server="qa",
)
