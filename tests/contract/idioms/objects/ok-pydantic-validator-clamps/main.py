"""Run settings as a pydantic model whose validator clamps worker counts to at least one."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
from pydantic import BaseModel, field_validator


class RunSettings(BaseModel):
    agent: str = "simple_agent"
    concurrency: int = 4
    repeats: int = 1

    @field_validator("concurrency", "repeats")
    @classmethod
    def at_least_one(cls, value: int) -> int:
        return max(1, value)


def runner_for(settings: RunSettings) -> GymAgentTaskRunner:
    config = GymRuntimeConfig(
        agent=settings.agent,
        agent_config=f"{settings.agent}.yaml",
        resources_server="mcqa",
        concurrency=settings.concurrency,
        num_repeats=settings.repeats,
    )
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
# 0 means "as the validator sees fit" in the team's YAML files; the validator makes it 1
smoke = RunSettings(concurrency=0, repeats=0)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner_for(smoke))
