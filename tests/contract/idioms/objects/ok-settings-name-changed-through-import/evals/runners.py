from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig

from . import settings


def build_runner():
    config = GymRuntimeConfig(
        agent=settings.AGENT,
        agent_config=f"{settings.AGENT}.yaml",
        resources_server="mcqa",
        concurrency=settings.QUOTAS["concurrency"],
    )
    return GymAgentTaskRunner(config=config)
