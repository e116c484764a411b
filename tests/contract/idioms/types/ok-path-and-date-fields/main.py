"""Agent files named by Path; their parts and the release date's fields go into the config."""

from datetime import date, timedelta
from pathlib import Path

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

AGENT_FILE = Path("configs/agents/simple_agent.yaml")
RELEASE = date(2026, 12, 5)

config = GymRuntimeConfig(
    agent=AGENT_FILE.stem,
    agent_config=AGENT_FILE.name,
    resources_server="mcqa",
    hydra_params={
        "config_dir": AGENT_FILE.parent,
        "release": {"year": RELEASE.year, "month": RELEASE.month},
        "turn_timeout_s": timedelta(minutes=5).seconds,
    },
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
