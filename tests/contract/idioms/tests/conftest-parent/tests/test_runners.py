"""Which runners can be submitted (fixtures from the parent conftest.py)."""

import pytest
from nemo_evaluator.jobs.runner_targets import UnsubmittableRunnerError


def test_gym_runner(client, suite, gym_runner):
    client.evaluator.submit(tasks=suite, target=gym_runner)


def test_harbor_runner(client, suite, harbor_runner):
    with pytest.raises(UnsubmittableRunnerError):
        client.evaluator.submit(tasks=suite, target=harbor_runner)  # expect: ES106
