"""The entry point: importing the launcher submits; run as a script, the negated guard's
`else` submits the smoke suite too."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig
from nemo_platform import NeMoPlatform

import launch

smoke = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")

if __name__ != "__main__":
    print(f"imported beside {launch.__name__}")
else:
    NeMoPlatform(workspace="qa").evaluator.submit(tasks=TasksetRef("qa/smoke"), target=smoke)  # expect: ES104
