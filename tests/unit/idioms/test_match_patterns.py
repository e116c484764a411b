"""A mapping pattern (``case {"agent": a, **rest}``) matches a ``Mapping`` only: never a class,
a function, a module, nor an object of an SDK class evalsubmit models (pydantic models,
runners, clients). An object of the user's class may be one, so there it stays undecided."""

from __future__ import annotations

from idiom_support import check


def test_a_config_falls_past_a_mapping_pattern() -> None:
    check("""
    def as_target(value):
        match value:
            case {"agent": str(agent), **rest}:
                return GymAgentTaskRunner(config=GymRuntimeConfig(agent=agent, **rest))
            case other:
                return other

    client.evaluator.submit(tasks=T, target=as_target(cfg))  # expect: ES104
    """)


def test_an_object_of_the_users_class_may_be_a_mapping() -> None:
    check("""
    from collections.abc import Mapping

    class Settings(Mapping):
        def __init__(self):
            self.data = {"agent": "a", "agent_config": "a.yaml", "resources_server": "mcqa"}

        def __getitem__(self, key):
            return self.data[key]

        def __iter__(self):
            return iter(self.data)

        def __len__(self):
            return len(self.data)

    def as_target(value):
        match value:
            case {"agent": str()}:
                return gym_runner  # a Settings is a Mapping: this case runs
            case _:
                return 42

    client.evaluator.submit(tasks=T, target=as_target(Settings()))
    """)
