"""Harbor runners run in-process; submitting one is refused."""

import pytest
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator.jobs.runner_targets import UnsubmittableRunnerError


def test_terminal_bench_is_local_only(client, runner):
    with pytest.raises(UnsubmittableRunnerError):
        client.evaluator.submit(tasks=TasksetRef("qa/terminal-bench"),
                                target=runner)  # expect: ES106
