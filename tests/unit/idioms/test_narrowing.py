"""Narrowing: a condition refines the values it tests on each side (issue 24, section 2).

The anchor is the set of narrowing forms pyright and mypy document. Each case is a mistake
that only narrowing reveals (an optional Harbor runner, which the SDK cannot submit, known
not to be None past a guard), beside the guarded correct variant, which stays silent.
"""

from __future__ import annotations

from idiom_support import check


def test_is_none_guard_that_returns() -> None:
    check("""
    from typing import Optional

    def launch(runner: Optional[HarborAgentTaskRunner] = None):
        if runner is None:
            return None
        return client.evaluator.submit(tasks=T, target=runner)  # expect: ES106

    def launch_gym(runner: GymAgentTaskRunner | None = None):
        if runner is None:
            return None
        return client.evaluator.submit(tasks=T, target=runner)
    """)


def test_or_guard_and_and_block() -> None:
    check("""
    def nightly(suite: TasksetRef | None, runner: HarborAgentTaskRunner | None):
        if suite is None or runner is None:
            return None
        return client.evaluator.submit(tasks=suite, target=runner)  # expect: ES106

    def weekly(suite: TasksetRef | None, runner: HarborAgentTaskRunner | None):
        if suite is not None and runner is not None:
            client.evaluator.submit(tasks=suite, target=runner)  # expect: ES106

    def monthly(suite: TasksetRef | None, runner: GymAgentTaskRunner | None):
        if suite is not None and runner is not None:
            client.evaluator.submit(tasks=suite, target=runner)
    """)


def test_truthiness_and_not() -> None:
    check("""
    def run(runner: HarborAgentTaskRunner | None = None):
        if not runner:
            raise ValueError("no runner")
        client.evaluator.submit(tasks=T, target=runner)  # expect: ES106

    def run_if(runner: HarborAgentTaskRunner | None = None):
        if runner:
            client.evaluator.submit(tasks=T, target=runner)  # expect: ES106
    """)


def test_assert_narrows_what_follows() -> None:
    check("""
    def test_harbor_runs(harbor_runner: HarborAgentTaskRunner | None = None):
        assert harbor_runner is not None
        client.evaluator.submit(tasks=T, target=harbor_runner)  # expect: ES106
    """)


def test_an_attribute_of_a_service_object() -> None:
    check("""
    class EvalService:
        def __init__(self, runner: HarborAgentTaskRunner | None = None):
            self.runner = runner

        def run(self):
            if self.runner is None:
                return None
            return client.evaluator.submit(tasks=T, target=self.runner)  # expect: ES106

    class GymService:
        def __init__(self, runner: GymAgentTaskRunner | None = None):
            self.runner = runner

        def run(self):
            if self.runner is None:
                return client.evaluator.submit(metric=em, dataset=rows)
            return client.evaluator.submit(tasks=T, target=self.runner)
    """)


def test_equality_with_a_literal() -> None:
    check("""
    def suite_for(env: str):
        if env == "qa team/nightly":  # expect: ES108
            return client.evaluator.submit(tasks=TasksetRef(env), target=gym_runner)
        if env != "qa/smoke":
            return None
        return client.evaluator.submit(tasks=TasksetRef(env), target=gym_runner)
    """)


def test_membership_and_isinstance() -> None:
    check("""
    def launch(runner: HarborAgentTaskRunner | None, mode: str):
        if mode in ("nightly", "weekly") and runner in (gym_runner,):
            pass
        if isinstance(runner, HarborAgentTaskRunner):
            client.evaluator.submit(tasks=T, target=runner)  # expect: ES106

    def launch_any(runner):
        if isinstance(runner, HarborAgentTaskRunner):
            client.evaluator.submit(tasks=T, target=runner)  # expect: ES106
        elif isinstance(runner, GymAgentTaskRunner):
            client.evaluator.submit(tasks=T, target=runner)
    """)


def test_walrus_in_a_condition() -> None:
    check("""
    def pick(runners: dict[str, HarborAgentTaskRunner | None], name: str):
        if (runner := runners.get(name)) is not None:
            client.evaluator.submit(tasks=T, target=runner)
    """)


def test_both_sides_rejoin_without_a_narrowed_value() -> None:
    """After an ``if`` whose both sides run on, the value is what it was before."""
    check("""
    def launch(runner: HarborAgentTaskRunner | None = None):
        if runner is None:
            print("no runner given")
        else:
            print("runner given")
        client.evaluator.submit(tasks=T, target=runner)
    """)


def test_a_property_of_an_enum_member_is_evaluated() -> None:
    """A property of a user ``Enum`` read on a member runs with ``self`` the member: a guard
    ``if runtime.submittable`` is decided per member (idiom ``flow/ok-enum-runtime-dispatch``:
    the Harbor runner was reported inside the guard that keeps it out)."""
    check("""
    import enum

    class Runtime(enum.Enum):
        GYM = "gym"
        HARBOR = "harbor"

        @property
        def submittable(self):
            return self is Runtime.GYM

        @property
        def runner(self):
            return gym_runner if self is Runtime.GYM else harbor

    for runtime in Runtime:
        if runtime.submittable:
            client.evaluator.submit(tasks=T, target=runtime.runner)
        if not runtime.submittable:
            client.evaluator.submit(tasks=T, target=runtime.runner)  # expect: ES106
    """)
