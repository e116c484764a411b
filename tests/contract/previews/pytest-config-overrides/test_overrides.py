"""Tests that adjust a shared config before they submit: the preview at the runner, the name
bound to it and the call shows the config as sent, whether the change came before the runner
was built or after (the runner holds the config, not a copy)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


def base_config():
    return GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")


def test_nightly_repeats():
    config = base_config()
    config.num_repeats = 5
    config.env_vars["MODE"] = "nightly"
    runner = GymAgentTaskRunner(config=config)
    job = client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=runner)
    assert job is not None


def test_tuned_after_the_runner_is_built():
    config = base_config()
    runner = GymAgentTaskRunner(config=config)
    config.concurrency = 16
    config.hydra_params["temperature"] = 0.2
    job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
    config.concurrency = 1  # after the submit: not sent
    assert job is not None
