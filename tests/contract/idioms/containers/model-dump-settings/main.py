"""A config dumped to a dict, edited, and used again."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

base = GymRuntimeConfig(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")

settings = base.model_dump()
settings["num_repeats"] = 3
client.evaluator.submit(
    tasks=TasksetRef("qa/repeat"), target=GymAgentTaskRunner(config=GymRuntimeConfig(**settings))
)

# The dump is a plain dict, not a config.
raw = GymAgentTaskRunner(config=base.model_dump())  # expect: ES109
client.evaluator.submit(tasks=TasksetRef("qa/repeat"), target=raw)
