"""Agents the suite submits: every runner variant must reach the platform."""

import pytest

from factories import make_harbor_runner, make_runner


def test_smoke(client, smoke, runner):
    job = client.evaluator.submit(tasks=smoke, target=runner)
    assert job.name


@pytest.mark.parametrize("suite", ["qa/smoke", "qa/smoke#v2", "qa/mcqa-nightly"])
def test_suites(client, runner, suite):
    client.evaluator.submit(tasks=suite, target=runner)


@pytest.mark.parametrize(
    "candidate",
    [
        make_runner(agent="tool_agent"),
        pytest.param(make_harbor_runner(), id="harbor"),
    ],
)
def test_candidates(client, smoke, candidate):
    client.evaluator.submit(tasks=smoke, target=candidate)  # expect: ES106


def test_config_fixture(client, smoke, config):
    # Forgot to wrap the config fixture in a runner.
    client.evaluator.submit(tasks=smoke, target=config)  # expect: ES104
