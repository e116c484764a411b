"""Joins, not merges: a value built differently on two paths is one of the two, never both
(issue 31). A finding on it holds only if it holds on every path that reaches the call."""

from __future__ import annotations

from idiom_support import check


def test_kwargs_built_per_branch_are_one_shape_or_the_other() -> None:
    check("""
    def launch(rows_mode: bool):
        kwargs = {}
        if rows_mode:
            kwargs.update(metric=em, dataset=rows)
        else:
            kwargs.update(tasks=T, target=gym_runner)
        return client.evaluator.submit(**kwargs)

    def launch_items(rows_mode: bool):
        kwargs = {}
        if rows_mode:
            kwargs["metric"] = em
            kwargs["dataset"] = rows
        else:
            kwargs["tasks"] = T
            kwargs["target"] = gym_runner
        return client.evaluator.submit(**kwargs)
    """)


def test_a_change_made_on_every_path_is_kept() -> None:
    check("""
    def launch(nightly: bool):
        kwargs = {"tasks": T, "target": gym_runner}
        if nightly:
            kwargs["config"] = RunConfig()  # expect: ES102
        else:
            kwargs.update(config=RunConfig())
        return client.evaluator.submit(**kwargs)

    def launch_always(nightly: bool):
        kwargs = {"tasks": T, "target": gym_runner}
        option = RunConfig()
        if nightly:
            print("nightly")
        kwargs["config"] = option  # expect: ES102
        return client.evaluator.submit(**kwargs)
    """)


def test_a_loop_that_may_not_run_changes_nothing_for_sure() -> None:
    check("""
    def launch(extra_options):
        kwargs = {"tasks": T, "target": gym_runner}
        for name in extra_options:
            kwargs[name] = RunConfig()
        return client.evaluator.submit(**kwargs)
    """)


def test_a_config_attribute_set_in_one_branch() -> None:
    check("""
    import os

    def build(fast: bool, agent: str):
        config = GymRuntimeConfig(agent=agent, agent_config="c.yaml", resources_server="r")
        if fast:
            config.num_repeats = 0
        return GymAgentTaskRunner(config=config)

    def build_always(fast: bool, agent: str):
        config = GymRuntimeConfig(agent=agent, agent_config="c.yaml", resources_server="r")
        if fast:
            config.num_repeats = 0  # expect: ES109
        else:
            config.num_repeats = 0
        return GymAgentTaskRunner(config=config)

    FAST = os.environ.get("FAST") == "1"
    client.evaluator.submit(tasks=T, target=build(FAST, "simple_agent"))
    client.evaluator.submit(tasks=T, target=build_always(FAST, "simple_agent"))
    """)


def test_try_and_handler_paths_join() -> None:
    check("""
    def launch(loader):
        kwargs = {}
        try:
            kwargs.update(tasks=T, target=loader())
        except KeyError:
            kwargs.update(metric=em, dataset=rows)
        return client.evaluator.submit(**kwargs)
    """)
