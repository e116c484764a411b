"""Runner definitions shared by the nightly submission script."""

import nemo_evaluator_sdk.agent_eval.runtimes.gym as gym

BASE = {
    "agent": "simple_agent",
    "agent_config": "configs/simple_agent.yaml",
    "resources_server": "mcqa",
}


def _log_rollout(rollout: dict) -> None:
    print(rollout["reward"])


def nightly_runner() -> gym.GymAgentTaskRunner:
    config = gym.GymRuntimeConfig(**BASE, concurrency=16, env_vars={"HF_HOME": "/models/hf"})
    return gym.GymAgentTaskRunner(config=config)


SMOKE_RUNNER = gym.GymAgentTaskRunner(
    config=gym.GymRuntimeConfig(
        **BASE,
        num_repeats=2,
        hydra_params={"on_rollout": _log_rollout},  # expect: ES107
    )
)
