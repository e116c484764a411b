"""Scheduled agent runs: `not a and not b` only skips entries where both are missing."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

RUNNERS = {
    "simple": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
}


def run_entry(client, suite, runner_name):
    if not suite and not runner_name:
        print("empty schedule entry, skipped")
        return None
    return client.evaluator.submit(tasks=suite, target=RUNNERS.get(runner_name))  # expect: ES104


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
run_entry(client, None, None)
run_entry(client, TasksetRef("qa/nightly"), "simple")
run_entry(client, TasksetRef("qa/smoke"), None)
