"""Values that flow through the standard library (issue 31): ``dataclasses.replace``,
``copy``, iteration over an ``Enum`` class, ``%`` and ``str.format`` with loop values."""

from __future__ import annotations

from idiom_support import check


def test_dataclasses_replace_keeps_the_fields_and_applies_the_changes() -> None:
    check("""
    import dataclasses

    @dataclasses.dataclass
    class Plan:
        agent: str = "simple_agent"
        repeats: int = 1

        def runner(self):
            return GymAgentTaskRunner(
                config=GymRuntimeConfig(
                    agent=self.agent, agent_config="a.yaml", resources_server="mcqa",
                    num_repeats=self.repeats,  # expect: ES109
                )
            )

    base = Plan()
    client.evaluator.submit(tasks=T, target=base.runner())
    smoke = dataclasses.replace(base, repeats=0)
    client.evaluator.submit(tasks=T, target=smoke.runner())
    """)


def test_copies_keep_what_is_known_and_what_is_added_after() -> None:
    check("""
    import copy

    BASE = {"seed": 1}

    def with_hook(hook):
        params = copy.deepcopy(BASE)
        params["on_rollout"] = hook  # expect: ES107
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="a", agent_config="a.yaml", resources_server="m", hydra_params=params
            )
        )

    client.evaluator.submit(tasks=T, target=with_hook(print))
    """)


def test_iterating_an_enum_class_walks_each_member() -> None:
    check("""
    import enum

    class Suite(enum.Enum):
        SMOKE = "qa/smoke"
        NIGHTLY = "qa nightly"  # expect: ES108 (where the value is written)

    for suite in Suite:
        client.evaluator.submit(tasks=TasksetRef(suite.value), target=gym_runner)
    """)


def test_percent_and_format_with_loop_values() -> None:
    check("""
    WORKSPACES = {"smoke": "qa team", "nightly": "qa"}

    for name, workspace in WORKSPACES.items():
        client.evaluator.submit(tasks=TasksetRef("%s/%s" % (workspace, name)), target=gym_runner)  # expect: ES108
        client.evaluator.submit(tasks=TasksetRef("{}/{}".format(workspace, name)), target=gym_runner)  # expect: ES108
        client.evaluator.submit(tasks=TasksetRef("%99s" % name), target=gym_runner)
    """)
