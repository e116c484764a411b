"""Parameters with defaults and call sites (issue 11, section 6)."""

from __future__ import annotations

from idiom_support import check, findings


def test_a_helper_is_checked_per_call_site() -> None:
    snippet = """
    def launch(target, suite="qa/smoke"):
        return client.evaluator.submit(tasks=TasksetRef(suite), target=target)  # expect: ES106

    launch(gym_runner)
    launch(harbor)
    launch(gym_runner, suite="qa team/smoke")  # expect: ES108
    """
    check(snippet)
    es106 = next(f for f in findings(snippet) if f.code == "ES106")
    assert "when launch() is called at line" in es106.message


def test_defaults_and_or_empty() -> None:
    check("""
    def build(settings=None, *, repeats=0):
        settings = settings or {}
        return GymRuntimeConfig(
            agent="a",
            agent_config="c.yaml",
            resources_server="r",
            num_repeats=repeats,  # expect: ES109
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
