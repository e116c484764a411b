"""Same test body, but here `runner` is the Harbor runner of the nearer conftest.py."""

import pytest
from nemo_evaluator.jobs.runner_targets import UnsubmittableRunnerError


def test_submit(client, tasks, runner):
    with pytest.raises(UnsubmittableRunnerError):
        client.evaluator.submit(tasks=tasks, target=runner)  # expect: ES106
