"""One entry point per runtime, dispatched with match; only Gym is submitted as a job."""

import sys
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


def build(kind: str):
    match kind:
        case "gym":
            return GymAgentTaskRunner(
                config=GymRuntimeConfig(
                    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"
                )
            )
        case "harbor":
            return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
        case _:
            raise ValueError(kind)


def run(kind: str, client) -> None:
    runner = build(kind)
    match runner:
        case GymAgentTaskRunner():
            client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
        case _:
            print(f"{type(runner).__name__} runs in-process only")


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for kind in ("gym", "harbor"):
    run(kind, client)
if len(sys.argv) > 1:
    run(sys.argv[1], client)
