"""Variants of the base Hydra overrides; the callback copy is only used for the local replay."""

import copy

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE_PARAMS = {"policy": {"temperature": 0.2, "max_tokens": 512}, "max_steps": 12}


def log_rollout(rollout):
    print("rollout", rollout)


def replay_locally(params):
    params["cb"]({"params": sorted(params)})


def runner_with(params):
    return GymAgentTaskRunner(
        config=GymRuntimeConfig(
            agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=params
        )
    )


fast = copy.copy(BASE_PARAMS)
fast["max_steps"] = 4
greedy = copy.deepcopy(BASE_PARAMS)
greedy["policy"]["temperature"] = 0.0
hooks = copy.deepcopy(BASE_PARAMS)
hooks["cb"] = log_rollout
replay_locally(hooks)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for params in (BASE_PARAMS, fast, greedy):
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner_with(params))
