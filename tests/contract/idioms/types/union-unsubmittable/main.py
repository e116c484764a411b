"""Local-only runners, whichever the settings pick, cannot be submitted."""

import os
from pathlib import Path
from typing import Union

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.callable_runtime import CallableAgentTaskRunner
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)
from nemo_platform import NeMoPlatform


async def echo_agent(task):
    return {"output_text": task.get("input", "")}


def local_runner() -> Union[HarborAgentTaskRunner, CallableAgentTaskRunner]:
    if os.environ.get("RUNNER") == "harbor":
        return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))
    return CallableAgentTaskRunner(echo_agent)


def submit(runner: Union[HarborAgentTaskRunner, CallableAgentTaskRunner]):
    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    return client.evaluator.submit(
        tasks=TasksetRef("qa/local-only"),
        target=runner,  # expect: ES106
    )


submit(local_runner())
