"""A config reached through another name before it is sent: the runner's ``config``, a value
set and set again, a loop, the config's own dicts, a dict that validation copied, a deep and a
shallow copy. Only what the config holds at the submit counts."""

import copy

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}
SMOKE = TasksetRef("qa/smoke")


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


def test_through_the_runner(client):
    runner = GymAgentTaskRunner(config=GymRuntimeConfig(**BASE))
    runner.config.num_repeats = 0  # expect: ES109
    client.evaluator.submit(tasks=SMOKE, target=runner)


def test_set_again_before_the_submit(client):
    config = GymRuntimeConfig(**BASE)
    config.concurrency = 0
    config.concurrency = 2
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))


def test_one_pass_of_a_loop(client):
    config = GymRuntimeConfig(**BASE)
    for grace in [5.0, -1.0]:
        config.shutdown_grace_s = grace  # expect: ES109
        client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))


def test_the_configs_own_dict(client):
    config = GymRuntimeConfig(**BASE, hydra_params={"temperature": 0.2})
    config.hydra_params.update({"on_step": lambda step: step})  # expect: ES107
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))


def test_a_dict_shared_by_two_configs(client):
    first = GymRuntimeConfig(**BASE)
    env = first.env_vars
    second = GymRuntimeConfig(**BASE, env_vars=env)  # holds a copy
    env["GPUS"] = 4  # expect: ES109
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=second))
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=first))


def test_a_deep_copy_is_its_own(client):
    config = GymRuntimeConfig(**BASE)
    clone = copy.deepcopy(config)
    clone.startup_timeout_s = 0
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))


def test_a_shallow_copy_shares_the_dicts(client):
    config = GymRuntimeConfig(**BASE)
    clone = config.model_copy()
    clone.env_vars["WORKERS"] = 8  # expect: ES109
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))
