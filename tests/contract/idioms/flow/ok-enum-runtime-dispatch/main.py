"""Runtimes as an Enum: only Gym is submitted, the others run in-process."""

import enum
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


class Runtime(enum.Enum):
    GYM = "gym"
    HARBOR = "harbor"

    @property
    def submittable(self) -> bool:
        return self is Runtime.GYM


def make(runtime: Runtime):
    if runtime is Runtime.GYM:
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
        )
    return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for runtime in Runtime:
    runner = make(runtime)
    if runtime.submittable:
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
    else:
        print(f"{runtime.value}: run it with AgentEvaluator")
