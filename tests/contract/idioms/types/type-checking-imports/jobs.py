"""Job helpers: the SDK types are imported for annotations only."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig

if TYPE_CHECKING:
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner
    from nemo_platform import NeMoPlatform


def submit_nightly(client: NeMoPlatform, runner: GymAgentTaskRunner):
    return client.evaluator.submit(
        tasks=TasksetRef("qa/nightly"),
        target=runner,
        config=RunConfig(parallelism=8),  # expect: ES102
    )


def submit_forgot_tasks(client: NeMoPlatform, runner: GymAgentTaskRunner):
    return client.evaluator.submit(target=runner)  # expect: ES103
