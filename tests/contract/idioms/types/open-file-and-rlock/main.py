"""A file handle and a lock put in hydra_params by a long-running launcher."""

import threading

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

prompts = open("prompts.txt")
config = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={"prompts": prompts},  # expect: ES107
)
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/prompts"), target=GymAgentTaskRunner(config=config))

guarded = GymRuntimeConfig(
    agent="simple_agent",
    agent_config="a.yaml",
    resources_server="mcqa",
    hydra_params={"guard": threading.RLock()},  # expect: ES107
)
client.evaluator.submit(tasks=TasksetRef("qa/prompts"), target=GymAgentTaskRunner(config=guarded))
