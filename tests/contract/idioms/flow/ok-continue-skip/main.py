"""Submit every registered target that is a live Gym runner; skip the rest with continue."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

CONFIG = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
TARGETS = {
    "simple": GymAgentTaskRunner(config=CONFIG),
    "terminal": HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))),
    "draft": None,
    "config-only": CONFIG,
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
jobs = {}
for name, target in TARGETS.items():
    if target is None:
        continue
    if not isinstance(target, GymAgentTaskRunner):
        print(f"{name}: not submittable, run it locally")
        continue
    jobs[name] = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=target)
print(sorted(jobs))
