"""Entry point: configures the settings module, then reads it at top level."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

from evalcfg import settings

settings.configure(repeats=2)
config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    num_repeats=settings.REPEATS,
    startup_timeout_s=settings.TIMEOUT_S,
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
