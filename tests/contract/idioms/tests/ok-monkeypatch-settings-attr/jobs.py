"""Builds the runner from the settings module as it is at call time."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

import settings


def submit(client):
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        concurrency=settings.CONCURRENCY,
    )
    return client.evaluator.submit(
        tasks=TasksetRef(settings.SUITE), target=GymAgentTaskRunner(config=config)
    )
