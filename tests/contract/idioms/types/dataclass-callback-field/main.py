"""Rollout settings as dataclasses: one of them carries a callback, which has no JSON form."""

from collections.abc import Callable
from dataclasses import dataclass, field

from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform


def log_rollout(result: dict) -> None:
    print(result)


@dataclass
class Sampling:
    temperature: float = 0.2
    stop: list[str] = field(default_factory=lambda: ["</s>"])


@dataclass
class RolloutHooks:
    every_n: int = 10
    on_rollout: Callable[[dict], None] = log_rollout


def runner(**hydra):
    config = GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=hydra
    )
    return GymAgentTaskRunner(config=config)


client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner(sampling=Sampling()))
try:
    client.evaluator.submit(
        tasks=TasksetRef("qa/smoke"),
        target=runner(sampling=Sampling(), hooks=RolloutHooks()),  # expect: ES107
    )
except TypeError as exc:
    print(exc)
