"""`params or {...}`: the fallback used when a caller passes nothing holds a function."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def log_rollout(rollout):
    print(rollout)


def runner_for(agent, hydra_params=None):
    hydra_params = hydra_params or {
        "on_rollout": log_rollout,  # expect: ES107
    }
    config = GymRuntimeConfig(
        agent=agent, agent_config="a.yaml", resources_server="mcqa", hydra_params=hydra_params
    )
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner_for("a", {"temperature": 0}))
client.evaluator.submit(tasks=TasksetRef("qa/mcqa"), target=runner_for("b"))
