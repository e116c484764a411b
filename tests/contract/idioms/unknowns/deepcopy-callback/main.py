"""Debug runs reuse the base Hydra overrides on a deep copy and add a rollout callback."""

import copy

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE_PARAMS = {"policy": {"temperature": 0.2, "max_tokens": 512}, "max_steps": 12}


def log_rollout(rollout):
    print("rollout", rollout)


def debug_params():
    params = copy.deepcopy(BASE_PARAMS)
    params["policy"]["temperature"] = 0.0
    params["cb"] = log_rollout  # expect: ES107
    return params


runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params=debug_params(),
    )
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
