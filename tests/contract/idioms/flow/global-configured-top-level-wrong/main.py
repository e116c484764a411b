"""A launcher whose worker count is a module global; configure() is called with 0."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

WORKERS = 4


def configure(workers):
    global WORKERS
    WORKERS = workers


configure(0)
config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    concurrency=WORKERS,  # expect: ES109
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
