"""Taskset references and remote paths built with PurePosixPath, rendered to strings."""

from pathlib import PurePosixPath

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

REMOTE_ROOT = PurePosixPath("/mnt/gym")
SUITE = PurePosixPath("qa") / "smoke"

config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={
        "output_dir": str(REMOTE_ROOT / "runs" / SUITE.name),
        "cache_dir": REMOTE_ROOT.joinpath("cache").as_posix(),
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=str(SUITE), target=GymAgentTaskRunner(config=config))
