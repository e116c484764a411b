"""Fixtures with return annotations; the runner's settings come from a file."""

import json
from pathlib import Path

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

HERE = Path(__file__).parent


@pytest.fixture
def platform() -> NeMoPlatform:
    return NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


@pytest.fixture
def nightly_runner() -> GymAgentTaskRunner:
    settings = json.loads((HERE / "nightly.json").read_text())
    return GymAgentTaskRunner(config=GymRuntimeConfig(**settings))


def test_nightly(platform, nightly_runner):
    platform.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=nightly_runner)


def test_nightly_parallel(platform, nightly_runner):
    with pytest.raises(TypeError, match="does not use"):
        platform.evaluator.submit(
            tasks=TasksetRef("qa/nightly"),
            target=nightly_runner,
            config=RunConfig(parallelism=16),  # expect: ES102
        )
