"""Runners registered by the team (loaded by name at run time)."""

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

QA = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="qa_agent", agent_config="qa.yaml", resources_server="qa")
)
