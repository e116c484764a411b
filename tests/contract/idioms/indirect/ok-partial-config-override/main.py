"""A partial of GymRuntimeConfig with a placeholder concurrency that every call overrides."""

from functools import partial

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

mcqa_config = partial(
    GymRuntimeConfig, agent_config="a.yaml", resources_server="mcqa", concurrency=0
)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
for agent, workers in (("simple_agent", 4), ("tool_agent", 2)):
    config = mcqa_config(agent=agent, concurrency=workers)
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=GymAgentTaskRunner(config=config))
