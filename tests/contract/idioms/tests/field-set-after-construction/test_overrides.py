"""Each test takes the shared config and overrides a field before it submits. Pydantic does
not validate an assignment: the SDK refuses the value only when the runner is submitted, and a
field set after the last submit is never sent."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def base_config():
    return GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


def test_single_repeat(client):
    config = base_config()
    config.num_repeats = 0  # expect: ES109
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))


def test_quick_startup(client):
    config = base_config()
    config.startup_timeout_s = 0  # expect: ES109
    runner = GymAgentTaskRunner(config=config)
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)


def test_retries_from_the_environment(client):
    config = base_config()
    config.env_vars["RETRIES"] = 3  # expect: ES109
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))


def test_resubmit_with_fewer_workers(client):
    config = base_config()
    runner = GymAgentTaskRunner(config=config)
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
    config.shutdown_grace_s = 0  # after the last submit: never sent
    config.env_vars["WORKERS"] = 2


class TestCopies:
    def test_copy_keeps_the_override(self, client):
        config = base_config()
        config.concurrency = 0  # expect: ES109
        copy = config.model_copy()
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=copy))
