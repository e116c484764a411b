"""A launch helper called with a runner, a config, a Harbor runner and a runner from a file."""

import json
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

CLIENT = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
SMOKE = TasksetRef("qa/smoke")


def launch(runner):
    return CLIENT.evaluator.submit(tasks=SMOKE, target=runner)


def runner_from_file(path):
    return GymAgentTaskRunner(config=GymRuntimeConfig(**json.loads(Path(path).read_text())))


config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
launch(GymAgentTaskRunner(config=config))
launch(config)  # expect: ES104
launch(HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs"))))  # expect: ES106
launch(runner_from_file("runner.json"))
