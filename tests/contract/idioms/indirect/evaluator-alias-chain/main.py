"""The evaluator namespace and its method, each bound to a name first."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def get_client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


evaluator = get_client().evaluator
launch = evaluator.submit

config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
runner = GymAgentTaskRunner(config=config)
launch(tasks=TasksetRef("qa/smoke"), target=runner)
launch(tasks=TasksetRef("qa/smoke"), target=config)  # expect: ES104
