"""Parameters with defaults and call sites (issue 11, section 6)."""

from __future__ import annotations

from idiom_support import check, findings


def test_a_helper_is_checked_per_call_site() -> None:
    snippet = """
    def launch(target, suite="qa/smoke", config=None):
        return client.evaluator.submit(tasks=TasksetRef(suite), target=target, config=config)

    def relaunch(target):
        return launch(target, config=RunConfig())  # expect: ES102

    launch(gym_runner)
    launch(harbor)  # expect: ES106
    launch(gym_runner, suite="qa team/smoke")  # expect: ES108
    relaunch(harbor)  # the SDK refuses config= first (ES102 above), before the runner
    """
    check(snippet)
    # reported at the argument that is wrong: that call site needs no naming
    assert all("when launch()" not in f.message for f in findings(snippet))


def test_defaults_and_or_empty() -> None:
    check("""
    def build(settings=None, *, repeats=0):  # expect: ES109
        settings = settings or {}
        return GymRuntimeConfig(
            agent="a",
            agent_config="c.yaml",
            resources_server="r",
            num_repeats=repeats,
            **settings,
        )

    build()
    build({"concurrency": 0})  # expect: ES109
    build(repeats=2)
    """)


def test_an_unknown_argument_keeps_the_helper_silent() -> None:
    check("""
    import sys

    def launch(target):
        return client.evaluator.submit(tasks=T, target=target)

    launch(sys.modules[__name__])
    """)
