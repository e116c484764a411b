"""A lock guards the shared results file; it ends up in the runner's hydra_params too."""

import threading

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RESULTS_LOCK = threading.Lock()
results = []


def record(line):
    with RESULTS_LOCK:
        results.append(line)


record("start")
if RESULTS_LOCK.acquire(timeout=1):
    results.clear()
    RESULTS_LOCK.release()
config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={"lock": RESULTS_LOCK},  # expect: ES107
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
