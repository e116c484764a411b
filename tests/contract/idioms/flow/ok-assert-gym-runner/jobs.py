"""Submits a runner as a job; the assert states which runners have a wire form."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner


def submit_job(client, runner, suite="qa/smoke"):
    assert isinstance(runner, GymAgentTaskRunner), f"{type(runner).__name__} cannot run as a job"
    return client.evaluator.submit(tasks=TasksetRef(suite), target=runner)
