"""Submits a runner as a job; the assert only checks the runner protocol, which Harbor satisfies."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.trials import AgentTaskRunner


def submit_job(client, runner, suite="qa/smoke"):
    assert isinstance(runner, AgentTaskRunner), f"{type(runner).__name__} cannot run as a job"
    return client.evaluator.submit(tasks=TasksetRef(suite), target=runner)
