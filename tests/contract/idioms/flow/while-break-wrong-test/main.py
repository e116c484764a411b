"""A pool of candidate runners: the loop stops at the first one that is set, not submittable."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


def next_submittable(pool):
    while True:
        name, runner = pool.pop(0)
        if runner is not None:
            break
        print(f"skipping {name}: {type(runner).__name__} runs in-process only")
    return runner


pool = [
    ("terminal", HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))),
    (
        "simple",
        GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"
            )
        ),
    ),
]
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=next_submittable(pool))  # expect: ES106
