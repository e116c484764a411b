"""A CLI whose main() returns an exit code; a bad suite name ends it before any submit."""

import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SUITES = {"smoke": "qa/smoke", "nightly": "qa/nightly"}


def main(argv: list[str]) -> int:
    name = argv[0] if argv else "smoke"
    if name not in SUITES:
        print(f"unknown suite {name!r}", file=sys.stderr)
        return 2
    suite = SUITES[name]
    runner = GymAgentTaskRunner(
        config=GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
    )
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    client.evaluator.submit(tasks=TasksetRef(suite), target=runner)
    return 0


if __name__ == "__main__":
    code = main(sys.argv[1:])
    if code:
        sys.exit(code)
