from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

from .settings import AGENT, LIMITS


def build_runner():
    config = GymRuntimeConfig(
        agent=AGENT,
        agent_config=f"{AGENT}.yaml",
        resources_server="mcqa",
        concurrency=LIMITS["concurrency"],
    )
    return GymAgentTaskRunner(config=config)
