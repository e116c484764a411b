"""A script whose module level stops at sys.exit(main()): the scratch code below never runs."""

import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def main():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
    return 0


sys.exit(main())

scratch = NeMoPlatform(base_url="http://localhost:8080", workspace="qa").evaluator
scratch.submit(tasks=TasksetRef("qa/smoke"), target="simple_agent")
