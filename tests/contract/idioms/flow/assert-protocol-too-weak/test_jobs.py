import pytest
from jobs import submit_job


def test_gym_runner_is_submitted(client, gym_runner):
    assert submit_job(client, gym_runner).name


def test_harbor_runner_is_refused_before_submit(client, harbor_runner):
    with pytest.raises(AssertionError, match="cannot run as a job"):
        submit_job(client, harbor_runner)  # expect: ES106
