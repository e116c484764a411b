"""``object.__setattr__(self, "name", value)``, the way a frozen dataclass's ``__post_init__``
writes its own fields, is a write of the field: the value read afterwards is the one written,
never the one the constructor was given."""

from __future__ import annotations

from idiom_support import check


def test_post_init_of_a_frozen_dataclass_writes_its_fields() -> None:
    check("""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Plan:
        suite: str
        workers: int = 4

        def __post_init__(self):
            object.__setattr__(self, "suite", self.suite.strip())
            object.__setattr__(self, "workers", self.workers - 4)

    plan = Plan(" qa/smoke ")
    client.evaluator.submit(tasks=TasksetRef(plan.suite), target=gym_runner)
    GymRuntimeConfig(
        agent="simple_agent",
        agent_config="a.yaml",
        resources_server="mcqa",
        concurrency=plan.workers,  # expect: ES109
    )
    """)


def test_the_value_written_wins_over_the_one_given() -> None:
    check("""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Plan:
        workers: int = 4

        def __post_init__(self):
            object.__setattr__(self, "workers", 8)

    plan = Plan(0)
    GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=plan.workers
    )
    """)


def test_a_write_outside_construction_makes_the_field_unknown() -> None:
    check("""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Plan:
        workers: int = 0

        def __post_init__(self):
            object.__setattr__(self, "workers", 0)

        def scale(self, factor):
            object.__setattr__(self, "workers", 8 * factor)

    def run(plan: Plan):
        GymRuntimeConfig(
            agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=plan.workers
        )
    """)


def test_a_name_not_known_makes_every_attribute_unknown() -> None:
    check("""
    from dataclasses import dataclass

    def name_of(field):
        return field

    @dataclass(frozen=True)
    class Plan:
        suite: str
        workers: int = 0

        def __post_init__(self):
            object.__setattr__(self, name_of("workers"), max(1, self.workers))

    plan = Plan(" qa/smoke ")
    client.evaluator.submit(tasks=TasksetRef(plan.suite), target=gym_runner)
    GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa", concurrency=plan.workers
    )
    """)


def test_a_write_to_another_object_makes_that_attribute_unknown() -> None:
    check("""
    from dataclasses import dataclass

    @dataclass(frozen=True)
    class Plan:
        suite: str

    @dataclass(frozen=True)
    class Normaliser:
        plan: Plan

        def __post_init__(self):
            object.__setattr__(self.plan, "suite", self.plan.suite.strip())

    plan = Plan(" qa/smoke ")
    Normaliser(plan)
    client.evaluator.submit(tasks=TasksetRef(plan.suite), target=gym_runner)
    """)
