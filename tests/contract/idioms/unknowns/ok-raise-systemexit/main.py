"""Submits the agent suites listed in SUITES and exits non-zero when none was submitted."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITES = ["qa/smoke", "qa/regression#v2"]


def main():
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
    jobs = [client.evaluator.submit(tasks=TasksetRef(s), target=runner) for s in SUITES]
    return 0 if jobs else 1


raise SystemExit(main())

# Scratch code kept for reference; never reached.
scratch_runner = GymAgentTaskRunner(
    config={"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}
)
