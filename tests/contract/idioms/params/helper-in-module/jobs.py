"""Submission helpers shared by the team's scripts."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_platform import NeMoPlatform

CLIENT = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")


def submit_suite(runner, suite="qa/mcqa", config=None):
    return CLIENT.evaluator.submit(tasks=TasksetRef(suite), target=runner, config=config)
