"""A script whose worker count is a module global, set by configure() before any runner."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

WORKERS = 0  # set by configure()


def configure(workers):
    global WORKERS
    WORKERS = workers


def build_runner(agent):
    config = GymRuntimeConfig(
        agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa", concurrency=WORKERS
    )
    return GymAgentTaskRunner(config=config)


configure(8)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=build_runner("simple_agent"))
