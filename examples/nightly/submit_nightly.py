"""Submit the nightly and smoke agent evaluations (run from this directory)."""

import os

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_platform import NeMoPlatform
from runners import SMOKE_RUNNER, nightly_runner


def get_client() -> NeMoPlatform:
    return NeMoPlatform(workspace=os.environ.get("NMP_WORKSPACE", "qa"))


def submit_all(client: NeMoPlatform) -> None:
    client.evaluator.submit(tasks=TasksetRef("qa/mcqa-nightly"), target=nightly_runner())
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=SMOKE_RUNNER)
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=SMOKE_RUNNER,
                            config=RunConfig(parallelism=8))  # expect: ES102


if __name__ == "__main__":
    submit_all(get_client())
