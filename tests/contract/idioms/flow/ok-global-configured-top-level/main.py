"""A launcher whose worker count is a module global set by configure(); the config is built at
top level, after the call."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

WORKERS = 0  # set by configure()
SUITE = "qa/smoke"


def configure(workers, suite=None):
    global WORKERS, SUITE
    WORKERS = workers
    if suite:
        SUITE = suite


configure(8, suite="qa/nightly")
config = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=WORKERS
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef(SUITE), target=GymAgentTaskRunner(config=config))
