"""Factories shared by the agent test suite (imported by conftest.py and the tests)."""

from pathlib import Path

from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (
    HarborAgentTaskRunner,
    HarborRuntimeConfig,
)

BASE = {
    "agent": "simple_agent",
    "agent_config": "configs/simple_agent.yaml",
    "resources_server": "mcqa",
}


def make_config(**overrides) -> GymRuntimeConfig:
    return GymRuntimeConfig(**{**BASE, **overrides})


def make_runner(**overrides) -> GymAgentTaskRunner:
    return GymAgentTaskRunner(config=make_config(**overrides))


def make_harbor_runner(jobs_dir="harbor-runs") -> HarborAgentTaskRunner:
    return HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path(jobs_dir)))
