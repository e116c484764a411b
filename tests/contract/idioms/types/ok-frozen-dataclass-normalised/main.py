"""A frozen plan dataclass that normalises its fields in __post_init__ (object.__setattr__)."""

from dataclasses import dataclass

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclass(frozen=True)
class Plan:
    suite: str
    workers: int = 0  # 0: let the plan pick

    def __post_init__(self):
        object.__setattr__(self, "suite", self.suite.strip())
        object.__setattr__(self, "workers", max(1, self.workers))


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
plan = Plan(" qa/smoke ")  # pasted with its padding
config = GymRuntimeConfig(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=plan.workers
)
client.evaluator.submit(tasks=TasksetRef(plan.suite), target=GymAgentTaskRunner(config=config))
