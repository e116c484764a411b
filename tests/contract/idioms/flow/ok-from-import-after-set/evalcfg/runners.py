"""Runners built from the settings as they are when this module is first imported."""

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

from evalcfg.settings import AGENT, CONCURRENCY

RUNNER = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent=AGENT,
        agent_config=f"{AGENT}.yaml",
        resources_server="mcqa",
        concurrency=CONCURRENCY,
    )
)
