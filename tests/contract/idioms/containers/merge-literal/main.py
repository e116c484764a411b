"""Settings merged with {**BASE, ...} before building the config."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = {"agent": "simple_agent", "agent_config": "a.yaml", "resources_server": "mcqa"}
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")

tools = GymRuntimeConfig(**{**BASE, "agent": "tool_agent", "concurrency": 8})
client.evaluator.submit(tasks=TasksetRef("qa/tools"), target=GymAgentTaskRunner(config=tools))

once = GymRuntimeConfig(**{**BASE, "num_repeats": 0})  # expect: ES109
client.evaluator.submit(tasks=TasksetRef("qa/tools"), target=GymAgentTaskRunner(config=once))
