"""Config builder: `env or {}` when the caller has no environment to add."""

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def build_runner(agent, env=None, hydra=None):
    config = GymRuntimeConfig(
        agent=agent,
        agent_config=f"{agent}.yaml",
        resources_server="mcqa",
        env_vars=env or {},
        hydra_params=hydra or {"temperature": 0.0},
    )
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=build_runner("simple_agent"))
client.evaluator.submit(
    tasks=TasksetRef("qa/smoke"),
    target=build_runner("tool_agent", env={"CUDA_VISIBLE_DEVICES": "0"}, hydra={}),
)
