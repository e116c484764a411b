"""Submit helper with a fallback: the fallback is the config, not a runner built from it."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SMOKE = TasksetRef("qa/smoke")


def default_config(agent="simple_agent"):
    return GymRuntimeConfig(agent=agent, agent_config=f"{agent}.yaml", resources_server="mcqa")


def submit_smoke(client, runner=None, suite=None):
    runner = runner or default_config()
    return client.evaluator.submit(tasks=suite or SMOKE, target=runner)  # expect: ES104


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
submit_smoke(client, GymAgentTaskRunner(config=default_config("tool_agent")))
submit_smoke(client)
