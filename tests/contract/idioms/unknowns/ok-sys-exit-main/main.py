"""Smoke job for CI: submits the smoke suite and exits with the status."""

import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def main() -> int:
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
    job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
    print("submitted", job)
    return 0


sys.exit(main())

# Left over from the notebook this script came from; never reached.
legacy_suite = TasksetRef("qa team/smoke")
legacy_config = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", num_repeats=0
)
