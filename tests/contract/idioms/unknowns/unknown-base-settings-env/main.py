"""Deployment settings read from EVAL_* environment variables (pydantic-settings)."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
from pydantic_settings import BaseSettings, SettingsConfigDict


class EvalSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="EVAL_")

    suite: str = ""  # must be set per deployment
    agent: str = "simple_agent"
    concurrency: int = 0  # must be set per deployment


settings = EvalSettings()
config = GymRuntimeConfig(
    agent=settings.agent,
    agent_config=f"{settings.agent}.yaml",
    resources_server="mcqa",
    concurrency=settings.concurrency,
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef(settings.suite), target=GymAgentTaskRunner(config=config))
