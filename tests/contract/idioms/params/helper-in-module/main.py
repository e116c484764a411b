"""Nightly script using the shared helper from jobs.py."""

from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

from jobs import submit_suite

config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
runner = GymAgentTaskRunner(config=config)
submit_suite(runner)
submit_suite(runner, "qa/tools", config=RunConfig(parallelism=4))  # expect: ES102
submit_suite(config, suite="qa/long")  # expect: ES104
