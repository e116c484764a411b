"""The team's runner, built in one place."""

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

SETTINGS = {"agent": "simple_agent", "agent_config": "configs/a.yaml", "resources_server": "mcqa"}


def nightly_runner():
    return GymAgentTaskRunner(config=GymRuntimeConfig(**SETTINGS, env_vars={"MODE": "nightly"}))
