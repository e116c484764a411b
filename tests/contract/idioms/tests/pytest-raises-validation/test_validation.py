"""Validation tests: constructions the SDK refuses, and an unserializable runner."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.jobs.runner_targets import UnsubmittableRunnerError
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
from pydantic import ValidationError

BASE = {"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}


def test_zero_repeats_is_refused():
    with pytest.raises(ValidationError):
        GymRuntimeConfig(**BASE, num_repeats=0)  # expect: ES109


def test_nested_taskset_name_is_refused():
    with pytest.raises(ValidationError):
        TasksetRef("qa/suites/smoke")  # expect: ES108


def test_callback_cannot_be_submitted():
    config = GymRuntimeConfig(**BASE, hydra_params={
        "on_rollout": print,  # expect: ES107
    })
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    with pytest.raises(UnsubmittableRunnerError):
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
