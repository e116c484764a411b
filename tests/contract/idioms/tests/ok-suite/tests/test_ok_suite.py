"""Correct submissions from fixtures and parametrize."""

import pytest
from nemo_evaluator_sdk import RunConfig


def test_agent(client, smoke, runner):
    assert client.evaluator.submit(tasks=smoke, target=runner).name


@pytest.mark.parametrize("suite", ["qa/smoke", "qa/smoke#v2", "mcqa"])
def test_plain_string_suites(client, runner, suite):
    client.evaluator.submit(tasks=suite, target=runner, config=None)


@pytest.mark.parametrize("parallelism", [1, 8])
def test_rows(client, metric, parallelism):
    client.evaluator.submit(
        metric=metric, dataset=[{"answer": "4"}], config=RunConfig(parallelism=parallelism)
    )
