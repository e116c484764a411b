"""A module that is both a script and a library: imported, it submits the nightly suite."""

import sys

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
nightly = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")


def main() -> int:
    print("use `python -m launch` only to print the plan")
    return 0


if __name__ == "__main__":
    sys.exit(main())
else:
    client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=nightly)  # expect: ES104

# run on import too (the guard above exits only when run as a script)
client.evaluator.submit(tasks=TasksetRef("qa/weekly"), target=nightly)  # expect: ES104
