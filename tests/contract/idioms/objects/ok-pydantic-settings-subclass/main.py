"""Settings models in a hierarchy: the tuned model extends the base runner settings."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
from pydantic import BaseModel


class RunnerSettings(BaseModel):
    agent: str
    agent_config: str = "a.yaml"
    resources_server: str = "mcqa"


class TunedSettings(RunnerSettings):
    concurrency: int = 0  # placeholder: every tuned run sets it
    num_repeats: int = 0  # placeholder: every tuned run sets it


tuned = TunedSettings(agent="simple_agent", concurrency=8, num_repeats=3)
config = GymRuntimeConfig(
    agent=tuned.agent,
    agent_config=tuned.agent_config,
    resources_server=tuned.resources_server,
    concurrency=tuned.concurrency,
    num_repeats=tuned.num_repeats,
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=GymAgentTaskRunner(config=config))
