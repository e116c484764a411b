"""Configs built without validation (model_construct) in a fast path of the launcher."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")

trusted = GymRuntimeConfig.model_construct(
    agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=16
)
client.evaluator.submit(tasks=TasksetRef("qa/fast"), target=GymAgentTaskRunner(config=trusted))

# Skips validation, so the bad value only fails when the job is submitted.
unchecked = GymRuntimeConfig.model_construct(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    num_repeats=0,  # expect: ES109
)
client.evaluator.submit(tasks=TasksetRef("qa/fast"), target=GymAgentTaskRunner(config=unchecked))
