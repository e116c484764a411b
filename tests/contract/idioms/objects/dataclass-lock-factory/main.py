"""Run options as a dataclass; its lock (for the progress bar) is sent with the rest."""

import threading
from dataclasses import asdict, dataclass, field

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclass
class RunOptions:
    temperature: float = 0.0
    seeds: list = field(default_factory=lambda: [1, 2, 3])
    progress_lock: object = field(default_factory=threading.Lock)


options = RunOptions(temperature=0.3)
config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={"run": options},  # expect: ES107
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
