"""A one-line lambda around submit, called with different values."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
smoke = lambda runner: client.evaluator.submit(tasks=TasksetRef("qa/smoke"),  # noqa: E731
                                               target=runner)

config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
smoke(GymAgentTaskRunner(config=config))
smoke(config)  # expect: ES104
