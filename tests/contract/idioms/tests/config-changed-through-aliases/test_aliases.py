"""A config changed through another name before it is sent: the runner's ``config``, a value
set and set again, a loop, the config's own dicts (updated, merged into, emptied), a dict that
validation copied, a deep and a shallow copy, a helper, a rebuild from its dump. Only what the
config holds when it is validated (at the submit, or by a new constructor) counts."""

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


def shorten(config):
    config.collection_timeout_s = 0  # expect: ES109


def test_a_helper_changes_it(client):
    config = GymRuntimeConfig(**BASE)
    shorten(config)
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))


def test_a_list_in_the_configs_default_dict(client):
    config = GymRuntimeConfig(**BASE)
    config.hydra_params["callbacks"] = []  # expect: ES107
    config.hydra_params["callbacks"].append(lambda step: step)
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))


def test_keys_taken_out_again(client):
    config = GymRuntimeConfig(**BASE, env_vars={"RANK": "0", "SEED": "1"})
    config.env_vars.pop("RANK")
    del config.env_vars["SEED"]
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))


def test_merged_in(client):
    config = GymRuntimeConfig(**BASE, env_vars={"MODE": "eval"})
    config.env_vars |= {"SHARDS": 2}  # expect: ES109
    client.evaluator.submit(tasks=SMOKE, target=GymAgentTaskRunner(config=config))


def test_rebuilt_from_its_dump(client):
    config = GymRuntimeConfig(**BASE)
    config.bind_resources_server = "maybe"  # expect: ES109
    GymRuntimeConfig(**config.model_dump())
