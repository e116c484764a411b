"""Environments declared in one table; unknown names are skipped with a message."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

ENVS = {
    "smoke": {"agent": "simple_agent", "agent_config": "smoke.yaml", "resources_server": "mcqa"},
    "nightly": {
        "agent": "simple_agent",
        "agent_config": "nightly.yaml",
        "resources_server": "mcqa",
        "num_repeats": 3,
    },
}


def runner_for(env):
    if (settings := ENVS.get(env)) is None:
        return None
    return GymAgentTaskRunner(config=GymRuntimeConfig(**settings))


def submit_env(client, env):
    runner = runner_for(env)
    if runner is None:
        print(f"no environment named {env!r}, skipped")
        return None
    return client.evaluator.submit(tasks=TasksetRef(f"qa/{env}"), target=runner)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for env in ("smoke", "nightly", "staging"):
    submit_env(client, env)
