"""Shared keywords in a dict, the target given explicitly per call."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
common = {"tasks": TasksetRef("qa/regression")}
small = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
large = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa",
                         concurrency=32)

client.evaluator.submit(**common, target=GymAgentTaskRunner(config=small))
client.evaluator.submit(**common, target=large)  # expect: ES104
