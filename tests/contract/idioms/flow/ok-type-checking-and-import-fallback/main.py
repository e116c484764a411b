"""Optional dependencies: yaml may be missing, type-only imports under TYPE_CHECKING."""

from __future__ import annotations

from typing import TYPE_CHECKING

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

try:
    import yaml
except ImportError:  # pragma: no cover - optional
    yaml = None

try:
    from nemo_evaluator_sdk.agent_eval.runtimes.gym.sandboxed import SandboxedGymAgentTaskRunner
except ImportError:  # the wheel does not ship sandboxed_gym
    SandboxedGymAgentTaskRunner = None

if TYPE_CHECKING:
    from nemo_evaluator_sdk.agent_eval.trials import AgentTaskRunner


def load_overrides(text: str) -> dict:
    if yaml is None:
        return {}
    return yaml.safe_load(text) or {}


def make_runner(sandboxed: bool = False) -> AgentTaskRunner:
    config = GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        hydra_params=load_overrides("temperature: 0.0\n"),
    )
    if sandboxed and SandboxedGymAgentTaskRunner is not None:
        return SandboxedGymAgentTaskRunner(config=config)
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=make_runner())
