"""Fixtures of the agent suite: one client per session, runners from the factories."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric
from nemo_platform import NeMoPlatform

from factories import make_config, make_runner


@pytest.fixture(scope="session")
def client():
    client = NeMoPlatform(workspace="qa")
    yield client
    client.close()


@pytest.fixture
def smoke() -> TasksetRef:
    return TasksetRef("qa/smoke")


@pytest.fixture
def runner():
    return make_runner(concurrency=8)


@pytest.fixture
def config():
    return make_config(concurrency=8)


@pytest.fixture
def metric():
    return ExactMatchMetric(reference="{{item.answer}}", candidate="{{sample.output_text}}")
