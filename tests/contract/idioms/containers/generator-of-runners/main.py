"""Every runtime the team maintains, yielded by a generator and submitted in turn."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


def all_runners():
    yield GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
    yield HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for runner in all_runners():
    try:
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)  # expect: ES106
    except TypeError as exc:
        print(f"{type(runner).__name__}: {exc}")
