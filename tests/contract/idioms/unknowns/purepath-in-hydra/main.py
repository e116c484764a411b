"""Paths on the Gym host are built as POSIX paths from a Windows workstation."""

from pathlib import PurePosixPath

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

REMOTE_ROOT = PurePosixPath("/mnt/gym")

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={
        "output_dir": REMOTE_ROOT / "runs" / "smoke",  # expect: ES107
        "cache_dir": str(REMOTE_ROOT / "cache"),
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
