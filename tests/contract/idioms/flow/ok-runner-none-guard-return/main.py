"""A registry lookup that may find nothing; the caller returns early then."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

REGISTRY = {
    "gym": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
    "harbor": HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))),
}


def submittable(name):
    runner = REGISTRY.get(name)
    if not isinstance(runner, GymAgentTaskRunner):
        return None
    return runner


def submit(client, name):
    runner = submittable(name)
    if runner is None:
        print(f"skip {name}")
        return None
    assert isinstance(runner, GymAgentTaskRunner)
    return client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for name in ("gym", "harbor", "fabric"):
    submit(client, name)
