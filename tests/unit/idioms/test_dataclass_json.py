"""A ``@dataclass`` instance in ``hydra_params`` sends its fields as construction left them,
also when a default is not a literal (a function, a ``default_factory``): a function field has
no JSON form and the SDK refuses it. Only where nothing may change the field afterwards."""

from __future__ import annotations

from idiom_support import check

PREAMBLE = """
from collections.abc import Callable
from dataclasses import dataclass, field

def log_rollout(result):
    print(result)

def run(**hydra):
    config = GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", hydra_params=hydra
    )
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=config))
"""


def test_a_function_default_is_refused() -> None:
    check(
        PREAMBLE
        + """
@dataclass
class Hooks:
    every_n: int = 10
    stop: list[str] = field(default_factory=lambda: ["</s>"])
    on_rollout: Callable = log_rollout

run(hooks=Hooks())  # expect: ES107
run(hooks=Hooks(on_rollout=None))
"""
    )


def test_a_field_changed_after_construction_is_not_trusted() -> None:
    check(
        PREAMBLE
        + """
@dataclass
class Hooks:
    on_rollout: Callable = log_rollout

hooks = Hooks()
hooks.on_rollout = None
run(hooks=hooks)


@dataclass
class Normalised:
    on_rollout: Callable = log_rollout

    def __post_init__(self):
        self.on_rollout = None

run(hooks=Normalised())
"""
    )
