"""Guards: code a call site's values rule out is never checked (issue 24, reachability).

A helper that starts with ``if suite is None or runner is None: return ...`` never reaches
its taskset call when it is called without them; a finding there would be on a line that
cannot run. The same helper called with a bad runner is still reported.
"""

from __future__ import annotations

from idiom_support import check


def test_an_or_guard_that_returns_rules_out_the_rest() -> None:
    check("""
    def quick_rows(client):
        return client.evaluator.submit(metric=em, dataset=rows)

    def launch(client, suite=None, runner=None):
        if suite is None or runner is None:
            return quick_rows(client)
        return client.evaluator.submit(tasks=suite, target=runner)

    launch(client)
    launch(client, T, gym_runner)
    launch(client, T, 42)  # expect: ES104
    """)


def test_a_not_guard_before_a_construction() -> None:
    check("""
    ENVS = {"prod": {"agent": "a", "agent_config": "c.yaml", "resources_server": "r"}}

    def runner_for(env=None, repeats=1):
        if not env:
            return None
        return GymAgentTaskRunner(config=GymRuntimeConfig(**ENVS[env], num_repeats=repeats))

    runner_for()
    runner_for(repeats=-1)
    runner_for("prod", repeats=2)
    runner_for("prod", repeats=-1)  # expect: ES109
    """)


def test_a_walrus_guard() -> None:
    check("""
    ENVS = {"prod": GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r")}

    def submit_env(env):
        if (cfg := ENVS.get(env)) is None:
            return None
        return client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=cfg))

    submit_env("staging")
    submit_env("prod")
    """)


def test_an_and_guard_around_the_call() -> None:
    check("""
    def maybe_submit(suite=None, runner=None):
        if suite is not None and runner is not None:
            client.evaluator.submit(tasks=suite, target=runner)
        return None

    maybe_submit()
    maybe_submit(T)
    maybe_submit(T, gym_runner)
    maybe_submit(T, "gym")  # expect: ES104
    """)


def test_raise_and_exit_end_a_path() -> None:
    check("""
    import sys

    def strict_launch(suite=None, runner=None):
        if runner is None:
            raise ValueError("a runner is needed")
        if suite is None:
            sys.exit("a suite is needed")
        return client.evaluator.submit(tasks=suite, target=runner)

    strict_launch()
    strict_launch(runner=gym_runner)
    strict_launch(T, gym_runner)
    """)


def test_a_guard_in_a_service_class() -> None:
    check("""
    class EvalService:
        def __init__(self, client, runner=None):
            self.client = client
            self.runner = runner

        def run(self, suite):
            if self.runner is None:
                return self.client.evaluator.submit(metric=em, dataset=rows)
            return self.client.evaluator.submit(tasks=suite, target=self.runner)

    EvalService(client).run(T)
    EvalService(client, gym_runner).run(T)
    """)


def test_only_the_path_taken_is_checked_and_the_other_still_is() -> None:
    check("""
    def launch(mode, runner):
        if mode == "rows":
            return client.evaluator.submit(metric=em, dataset=rows, target=runner)
        return client.evaluator.submit(tasks=T, target=runner)

    launch("tasks", gym_runner)
    launch("rows", gym_runner)  # expect: ES105
    """)


def test_a_return_ends_the_rest_of_a_body_walked_alone() -> None:
    check("""
    def describe(runner):
        return "ok"
        client.evaluator.submit(tasks=T, target=3)
    """)


def test_code_after_a_loop_runs_when_it_breaks_and_not_when_only_else_returns() -> None:
    check("""
    def first_ok(candidates):
        for candidate in candidates:
            if candidate is not None:
                break
        else:
            return None
        return client.evaluator.submit(tasks=T, target=candidate, config=RunConfig())  # expect: ES102

    def never_after(candidates):
        for candidate in candidates:
            print(candidate)
        else:
            return None
        return client.evaluator.submit(tasks=T, target=candidate, config=RunConfig())

    first_ok([gym_runner])
    never_after([gym_runner])
    """)


def test_while_true_is_left_by_break_only() -> None:
    check("""
    import time

    def wait_then_submit(poll):
        while True:
            if poll():
                break
            time.sleep(1)
        return client.evaluator.submit(tasks=T, target=gym_runner, config=RunConfig())  # expect: ES102

    def serve_forever(queue):
        while True:
            queue.get()
        client.evaluator.submit(tasks=T, target=gym_runner, config=RunConfig())
    """)


def test_finally_runs_on_every_path_and_handlers_rejoin() -> None:
    check("""
    def guarded(runner=None):
        try:
            if runner is None:
                return None
        finally:
            print("done")
        return client.evaluator.submit(tasks=T, target=runner)

    def fallback(runner=None):
        try:
            chosen = runner.copy()
        except AttributeError:
            return None
        return client.evaluator.submit(tasks=T, target=chosen)

    guarded()
    guarded(7)  # expect: ES104
    fallback()
    """)


def test_pytest_raises_and_suppress_let_the_code_after_them_run() -> None:
    check("""
    import contextlib

    import pytest

    def test_refused():
        with pytest.raises(ValueError):
            raise ValueError("no")
        client.evaluator.submit(tasks=T, target=3)  # expect: ES104

    def quiet():
        with contextlib.suppress(KeyError):
            raise KeyError("x")
        client.evaluator.submit(tasks=T, target=4)  # expect: ES104
    """)


def test_no_return_helpers_and_assert_false_end_a_path() -> None:
    check("""
    from typing import NoReturn

    import pytest

    def die(message: str) -> NoReturn:
        raise SystemExit(message)

    def launch(runner=None):
        if runner is None:
            die("no runner")
        return client.evaluator.submit(tasks=T, target=runner)

    def test_launch_needs_a_runner():
        if gym_runner is None:
            pytest.fail("fixture missing")
        assert gym_runner is not None
        launch(gym_runner)

    def unreachable_branch(kind):
        if kind == "taskset":
            return client.evaluator.submit(tasks=T, target=gym_runner)
        assert False, kind
        client.evaluator.submit(tasks=T, target=5)

    launch()
    launch(gym_runner)
    unreachable_branch("rows")
    """)


def test_a_helper_that_may_fall_off_its_end_returns_none_there() -> None:
    """``pick`` returns the runner only for "gym": another kind gets None, so its result is
    not the runner (and, being one of two values, not reported either)."""
    check("""
    import os

    def pick(kind):
        if kind == "gym":
            return gym_runner

    def pick_or_number(kind):
        if kind == "gym":
            return gym_runner
        return 3

    client.evaluator.submit(tasks=T, target=pick(os.environ["KIND"]))
    client.evaluator.submit(tasks=T, target=pick("gym"))
    client.evaluator.submit(tasks=T, target=pick_or_number(os.environ["KIND"]))
    client.evaluator.submit(tasks=T, target=pick_or_number("local"))  # expect: ES104
    """)


def test_a_registry_lookup_that_raises_goes_to_its_handler() -> None:
    check("""
    REGISTRY = {"simple_agent": gym_runner}

    def submit_named(name):
        try:
            runner = REGISTRY[name]
        except KeyError:
            runner = None
        return client.evaluator.submit(tasks=T, target=runner)  # expect: ES104

    def submit_known(name):
        try:
            runner = REGISTRY[name]
        except KeyError:
            return None
        return client.evaluator.submit(tasks=T, target=runner)

    submit_named("simple_agent")
    submit_named("rag_agent")
    submit_known("rag_agent")
    submit_known("simple_agent")
    """)


def test_a_default_dict_never_raises() -> None:
    check("""
    import collections

    def submit_named(name):
        runners = collections.defaultdict(lambda: gym_runner)
        try:
            runner = runners[name]
        except KeyError:
            runner = None
        return client.evaluator.submit(tasks=T, target=runner)

    submit_named("rag_agent")
    """)


def test_a_helper_that_always_raises_ends_its_callers_path() -> None:
    check("""
    def fail(message):
        print(message)
        raise SystemExit(message)

    def pick(kind):
        if kind == "gym":
            return gym_runner
        fail(f"unknown kind {kind}")

    def stub() -> GymAgentTaskRunner:
        raise NotImplementedError

    client.evaluator.submit(tasks=T, target=pick("gym"))
    client.evaluator.submit(tasks=T, target=pick("harbor"))
    client.evaluator.submit(tasks=T, target=stub())
    """)


def test_falling_off_the_end_returns_none_unless_a_call_may_not_return() -> None:
    check("""
    import argparse

    parser = argparse.ArgumentParser()

    def pick(kind):
        if kind == "gym":
            return gym_runner
        print(f"unknown kind {kind}")

    def pick_or_exit(kind, parser):
        if kind == "gym":
            return gym_runner
        parser.error(f"unknown kind {kind}")

    client.evaluator.submit(tasks=T, target=pick("harbor"))  # expect: ES104
    client.evaluator.submit(tasks=T, target=pick_or_exit("harbor", parser))
    """)


def test_code_after_a_module_level_exit_never_runs() -> None:
    # after an exit inside `if __name__ == "__main__":`, it does (on import): test_main_guard
    check("""
    import sys

    def main():
        return client.evaluator.submit(tasks=T, target=gym_runner)

    sys.exit(main())

    client.evaluator.submit(tasks=T, target=7)
    """)
