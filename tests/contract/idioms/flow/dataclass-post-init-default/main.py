"""A dataclass job whose runner is built in __post_init__; the default repeat count is 0."""

from dataclasses import dataclass, field

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


@dataclass
class NightlyJob:
    agent: str = "simple_agent"
    suite: str = "qa/nightly"
    repeats: int = 0
    env: dict = field(default_factory=lambda: {"HF_HOME": "/models/hf"})

    def __post_init__(self):
        self.runner = GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent=self.agent,
                agent_config=f"{self.agent}.yaml",
                resources_server="mcqa",
                num_repeats=self.repeats,  # expect: ES109
                env_vars=self.env,
            )
        )

    def submit(self, client):
        return client.evaluator.submit(tasks=TasksetRef(self.suite), target=self.runner)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
NightlyJob().submit(client)
NightlyJob(agent="tool_agent", repeats=3).submit(client)
