"""Nightly submit; --dry-run stops before anything is built."""

import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

if "--dry-run" in sys.argv:
    print("dry run: nothing submitted")
    sys.exit(0)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
)
nightly = TasksetRef("qa/nightly smoke")  # expect: ES108
client.evaluator.submit(tasks=nightly, target=runner)
