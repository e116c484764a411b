"""One runner per suite; references are built with % from the mapping's keys."""

from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

WORKSPACE = "qa"
RUNNERS = {
    "mcqa": GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    ),
    "terminal-bench": HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))),
}

client = NeMoPlatform(base_url="http://localhost:8080", workspace=WORKSPACE)
for name, runner in RUNNERS.items():
    client.evaluator.submit(
        tasks=TasksetRef("%s/%s" % (WORKSPACE, name)),
        target=runner,  # expect: ES106
    )
