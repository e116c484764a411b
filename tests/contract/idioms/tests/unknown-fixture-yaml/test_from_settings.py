"""Fixtures read from the suite's settings file: nothing is known before run time."""

from pathlib import Path

import pytest
import yaml
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SETTINGS = yaml.safe_load((Path(__file__).parent / "suite.yaml").read_text())


@pytest.fixture
def client():
    return NeMoPlatform(base_url="http://localhost:8080", workspace=SETTINGS["workspace"])


@pytest.fixture
def target():
    return GymAgentTaskRunner(config=GymRuntimeConfig(**SETTINGS["runner"]))


@pytest.mark.parametrize("suite", SETTINGS["suites"])
def test_suite(client, target, suite):
    client.evaluator.submit(tasks=suite, target=target, **SETTINGS["options"])
