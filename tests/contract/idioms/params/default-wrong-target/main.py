"""The default target is the config, not a runner built from it."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

DEFAULT_CONFIG = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"
)


def submit(client, tasks, target=DEFAULT_CONFIG):  # expect: ES104
    return client.evaluator.submit(tasks=tasks, target=target)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit(client, TasksetRef("qa/mcqa"), GymAgentTaskRunner(config=DEFAULT_CONFIG))
submit(client, TasksetRef("qa/mcqa"))
