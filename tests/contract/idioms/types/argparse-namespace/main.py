"""Command-line launcher: values from argv are unknown, the Namespace itself is not JSON."""

import argparse

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

parser = argparse.ArgumentParser()
parser.add_argument("--suite", default="qa/smoke")
parser.add_argument("--concurrency", type=int, default=4)
parser.add_argument("--temperature", type=float, default=0.0)
args = parser.parse_args()

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    concurrency=args.concurrency,
    hydra_params={
        "temperature": args.temperature,
        "cli": args,  # expect: ES107
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef(args.suite), target=GymAgentTaskRunner(config=config))
