"""Scheduled agent runs: skipped unless both the suite and the runner are set (`not (a and b)`)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SCHEDULE = [
    {"suite": TasksetRef("qa/smoke"), "runner": None},
    {"suite": None, "runner": "simple"},
    {"suite": TasksetRef("qa/nightly"), "runner": "simple"},
]
RUNNERS = {
    "simple": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
}


def run_entry(client, suite, runner_name):
    if not (suite and runner_name):
        print("incomplete schedule entry, skipped")
        return None
    return client.evaluator.submit(tasks=suite, target=RUNNERS[runner_name])


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for entry in SCHEDULE:
    run_entry(client, entry["suite"], entry["runner"])
