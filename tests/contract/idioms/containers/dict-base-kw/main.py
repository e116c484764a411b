"""dict(BASE, key=value) overrides before building the config."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

BASE = dict(agent="simple_agent", agent_config="a.yaml", resources_server="mcqa")
client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")

gpu = dict(BASE, env_vars={"CUDA_VISIBLE_DEVICES": "0,1"})
client.evaluator.submit(
    tasks=TasksetRef("qa/gpu"), target=GymAgentTaskRunner(config=GymRuntimeConfig(**gpu))
)

gpus = dict(BASE, env_vars={"NUM_GPUS": 8})  # expect: ES109
client.evaluator.submit(
    tasks=TasksetRef("qa/gpu"), target=GymAgentTaskRunner(config=GymRuntimeConfig(**gpus))
)
