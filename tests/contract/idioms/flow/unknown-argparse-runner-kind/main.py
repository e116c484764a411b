"""CLI: the runner kind is chosen on the command line; one of the choices could not be submitted."""

import argparse
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform

parser = argparse.ArgumentParser()
parser.add_argument("--runner", choices=["gym", "harbor"], default="harbor")
parser.add_argument("--suite", type=str, required=True)
args = parser.parse_args()

if args.runner == "gym":
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
else:
    runner = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef(args.suite), target=runner)
