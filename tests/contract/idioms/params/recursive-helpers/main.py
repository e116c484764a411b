"""A public helper delegating to a private one; the wrong value enters at the public call."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def _submit(client, target, suite):
    return client.evaluator.submit(tasks=TasksetRef(suite), target=target)


def submit_smoke(client, target):
    return _submit(client, target, "qa/smoke")


def submit_nightly(client, target):
    return _submit(client, target, suite="qa/nightly")


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
submit_smoke(client, GymAgentTaskRunner(config=config))
submit_nightly(client, config)  # expect: ES104
