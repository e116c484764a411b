"""Walrus inside a compound condition: look the target up and check its kind in one test."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

TARGETS = {
    "simple": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
    "terminal": HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))),
}


def submit_if_possible(client, name):
    if (target := TARGETS.get(name)) is not None and isinstance(target, GymAgentTaskRunner):
        return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=target)
    print(f"{name}: nothing to submit")
    return None


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for name in ("simple", "terminal", "missing"):
    submit_if_possible(client, name)
