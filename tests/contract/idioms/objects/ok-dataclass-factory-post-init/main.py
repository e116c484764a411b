"""A job spec dataclass: mutable defaults from default_factory, filled in __post_init__."""

from dataclasses import dataclass, field

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclass
class JobSpec:
    suite: str
    agent: str = "simple_agent"
    concurrency: int = 0  # 0: one worker per CPU, decided in __post_init__
    hydra: dict = field(default_factory=dict)
    env: dict = field(default_factory=lambda: {"LOG_LEVEL": "info"})

    def __post_init__(self):
        if self.concurrency <= 0:
            self.concurrency = 4
        self.hydra.setdefault("temperature", 0.0)

    def runner(self) -> GymAgentTaskRunner:
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent=self.agent,
                agent_config=f"{self.agent}.yaml",
                resources_server="mcqa",
                concurrency=self.concurrency,
                hydra_params=self.hydra,
                env_vars=self.env,
            )
        )


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for spec in [JobSpec("qa/smoke"), JobSpec("qa/nightly", concurrency=8)]:
    client.evaluator.submit(tasks=TasksetRef(spec.suite), target=spec.runner())
