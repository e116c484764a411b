"""Loops over known elements whose body can leave early (``break``, ``return``): walked in
order, each element from where the one before left off, as long as every element's walk
decides whether it leaves; otherwise walked the general way (issue 24's flow gaps)."""

from __future__ import annotations

from idiom_support import check


def test_a_search_that_finds_nothing_leaves_the_default() -> None:
    check("""
    RUNNERS = {"tool_agent": gym_runner}

    def preferred(client, names):
        runner = None
        for name in names:
            runner = RUNNERS.get(name)
            if runner is not None:
                break
        return client.evaluator.submit(tasks=T, target=runner)  # expect: ES104

    preferred(client, ["rag_agent", "tool_agent"])
    preferred(client, ["rag_agent", "cot_agent"])
    """)


def test_a_search_that_finds_one_sends_it() -> None:
    check("""
    RUNNERS = {"tool_agent": gym_runner}

    def preferred(client, names):
        runner = None
        for name in names:
            runner = RUNNERS.get(name)
            if runner is not None:
                break
        else:
            raise LookupError(names)
        return client.evaluator.submit(tasks=T, target=runner)

    preferred(client, ["rag_agent", "tool_agent"])
    preferred(client, ["cot_agent", "rag_agent"])  # raises LookupError before submit()
    """)


def test_a_lookup_that_returns_from_the_loop() -> None:
    check("""
    RUNNERS = {"simple_agent": gym_runner, "tool_agent": gym_runner}

    def find(name):
        for known, runner in RUNNERS.items():
            if known == name:
                return runner
        return None

    client.evaluator.submit(tasks=T, target=find("tool_agent"))
    client.evaluator.submit(tasks=T, target=find("rag_agent"))  # expect: ES104
    """)


def test_a_break_on_an_unknown_condition_is_not_decided() -> None:
    """Whether the loop breaks depends on the environment: nothing is claimed."""
    check("""
    import os

    def pick(client):
        runner = None
        for name in ["a", "b"]:
            if os.environ.get("AGENT") == name:
                runner = gym_runner
                break
        return client.evaluator.submit(tasks=T, target=runner)

    pick(client)
    """)


def test_a_maybe_break_after_a_change_in_place_claims_nothing_about_the_container() -> None:
    """The list differs between the path that broke and the one that ran out: not claimed to
    hold the bad value on every path."""
    check("""
    import os

    def build():
        params = {}
        for key in ["seed", "hook"]:
            if os.environ.get("STOP") == key:
                break
            params[key] = print if key == "hook" else 1
        return GymAgentTaskRunner(
            config=GymRuntimeConfig(
                agent="a", agent_config="a.yaml", resources_server="m", hydra_params=params
            )
        )

    client.evaluator.submit(tasks=T, target=build())
    """)


def test_members_of_one_enum_compare_by_identity() -> None:
    check("""
    import enum

    class Stage(enum.Enum):
        SMOKE = "smoke"
        CANARY = "canary"

    def runner_for(stage):
        runner = None
        if stage is Stage.SMOKE:
            runner = gym_runner
        return runner

    client.evaluator.submit(tasks=T, target=runner_for(Stage.SMOKE))
    client.evaluator.submit(tasks=T, target=runner_for(Stage.CANARY))  # expect: ES104
    """)


def test_an_element_that_may_break_or_not_is_walked_the_general_way() -> None:
    """Broke at the first element, ``runner`` is None; ran out, it is a runner: not known."""
    check("""
    import os

    def pick(client):
        runner = gym_runner
        for name in ["a", "b"]:
            runner = None
            if os.environ.get("STOP") == name:
                break
            runner = gym_runner
        return client.evaluator.submit(tasks=T, target=runner)

    pick(client)
    """)
