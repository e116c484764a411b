"""A cast silences the type checker; the value is still a config, not a runner."""

from typing import cast

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.trials import AgentTaskRunner
from nemo_platform import NeMoPlatform

config = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
target = cast(AgentTaskRunner, config)

client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=target)  # expect: ES104
