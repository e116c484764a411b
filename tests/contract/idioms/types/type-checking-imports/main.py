"""Entry point: build what the job helpers need from the environment."""

import os

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

from jobs import submit_forgot_tasks, submit_nightly


def from_env():
    client = NeMoPlatform(workspace=os.environ.get("NMP_WORKSPACE", "qa"))
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(
            agent=os.environ.get("AGENT", "simple_agent"),
            agent_config=os.environ.get("AGENT_CONFIG", "a.yaml"),
            resources_server=os.environ.get("RESOURCES", "mcqa"),
        )
    )
    return client, runner


client, runner = from_env()
submit_nightly(client, runner)
submit_forgot_tasks(client, runner)
