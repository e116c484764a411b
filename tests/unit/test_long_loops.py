"""A loop over more known elements than are walked one by one (``MAX_ELEMENT_WALKS``): the body
is still checked once per distinct element (up to ``MAX_CHECK_WALKS``). It bound an unknown
loop variable, so a malformed taskset among 20 known suites was never checked and the CLI said
"All checks passed" (idiom ``containers/long-suite-list``)."""

from __future__ import annotations

import textwrap

import pytest

from evalsubmit.analysis import analyze_source
from evalsubmit.analysis.interp.frames import MAX_CHECK_WALKS, MAX_ELEMENT_WALKS

HEADER = textwrap.dedent("""\
    from nemo_evaluator.api.schemas import TasksetRef
    from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
    from nemo_platform import NeMoPlatform

    client = NeMoPlatform(base_url="http://localhost:8080", workspace="qa")
    """)


def _program(suites: str, body: str) -> str:
    return (
        HEADER
        + f"SUITES = {suites}\n"
        + "runner = GymAgentTaskRunner(config=GymRuntimeConfig("
        + "agent='a', agent_config='a.yaml', resources_server='m'))\n"
        + "for suite in SUITES:\n"
        + textwrap.indent(body, "    ")
        + "\n"
    )


SUBMIT = "client.evaluator.submit(tasks=TasksetRef(suite), target=runner)"


def _findings(source: str, code: str) -> list[str]:
    report = analyze_source(source)
    assert report.skipped is None, report.skipped
    return sorted(f.message for f in report.findings if f.code == code)


def test_a_malformed_element_beyond_the_walk_limit_is_found_and_named() -> None:
    names = [f"qa/s{i}" for i in range(MAX_ELEMENT_WALKS + 4)]
    names[MAX_ELEMENT_WALKS + 2] = "qa/long context"
    found = _findings(_program(repr(names), SUBMIT), "ES108")
    assert len(found) == 1
    assert "'qa/long context'" in found[0] and "for the 19th suite of SUITES" in found[0]


def test_a_repeated_element_is_walked_once_and_holds_for_the_loop() -> None:
    found = _findings(_program('["qa/a b" for _ in range(40)]', SUBMIT), "ES108")
    assert len(found) == 1 and "(for the" not in found[0]


def test_a_finding_of_every_element_is_said_once_for_the_loop() -> None:
    body = (
        "GymRuntimeConfig(agent='a', agent_config='a.yaml', resources_server='m',"
        " concurrency=0)\n" + SUBMIT
    )
    names = [f"qa/s{i}" for i in range(MAX_ELEMENT_WALKS + 4)]
    found = _findings(_program(repr(names), body), "ES109")
    assert found == ["`concurrency` must be ≥ 1, got 0"]


def test_elements_beyond_the_check_limit_are_not_claimed() -> None:
    names = [f"qa/s{i}" for i in range(MAX_CHECK_WALKS + 5)]
    names[-1] = "qa/long context"  # past the bound: not walked, nothing said about it
    names[1] = "qa/bad name"
    found = _findings(_program(repr(names), SUBMIT), "ES108")
    assert len(found) == 1 and "'qa/bad name'" in found[0] and "2nd suite" in found[0]


def test_a_body_that_may_break_is_not_checked_past_the_break() -> None:
    names = [f"qa/s{i}" for i in range(MAX_ELEMENT_WALKS + 4)]
    names[-1] = "qa/long context"  # after "qa/s3", where the loop always stops
    body = 'if suite == "qa/s3":\n    break\n' + SUBMIT
    assert _findings(_program(repr(names), body), "ES108") == []


def test_what_the_loop_binds_comes_from_the_general_walk() -> None:
    """The per-element check walks bind nothing that outlives them: the last element is
    malformed, so a leak of their bindings into ``last`` would report it after the loop."""
    names = [f"qa/s{i}" for i in range(MAX_ELEMENT_WALKS + 4)]
    names[-1] = "qa/bad name"
    after = "client.evaluator.submit(tasks=TasksetRef(last), target=runner)\n"
    assert _findings(_program(repr(names), "last = suite") + after, "ES108") == []


def _while(loop: str) -> str:
    return (
        HEADER
        + "SUITES = ['qa/a', 'qa/b c', 'qa/d']\n"
        + "runner = GymAgentTaskRunner(config=GymRuntimeConfig("
        + "agent='a', agent_config='a.yaml', resources_server='m'))\n"
        + textwrap.dedent(loop)
    )


def test_a_while_loop_over_a_counter_keeps_the_known_elements() -> None:
    source = _while("""\
        i = 0
        while i < len(SUITES):
            client.evaluator.submit(tasks=TasksetRef(SUITES[i]), target=runner)
            i += 1
        """)
    found = _findings(source, "ES108")
    assert len(found) == 1 and "'qa/b c'" in found[0]


def test_a_while_loop_left_by_break_checks_no_element_after_it() -> None:
    source = _while("""\
        i = 0
        while i < len(SUITES):
            if SUITES[i] == "qa/a":
                break
            client.evaluator.submit(tasks=TasksetRef(SUITES[i]), target=runner)
            i += 1
        """)
    assert _findings(source, "ES108") == []


def test_code_after_a_while_whose_test_held_on_entry_is_reached() -> None:
    # `ready` is true on entry, but not always: the loop ends, what follows runs
    source = _while("""\
        import random
        ready = True
        while ready:
            ready = random.random() > 0.5
        GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m", concurrency=0)
        """)
    assert _findings(source, "ES109") == ["`concurrency` must be ≥ 1, got 0"]


@pytest.mark.parametrize("zeros", [2, MAX_ELEMENT_WALKS + 4])
def test_a_pass_after_the_first_does_not_see_the_values_before_the_loop(zeros: int) -> None:
    """``base`` is 1 from the second pass on: walked from the loop's start with ``extra`` 0,
    it read 0 and reported a concurrency of 0 the program never sends."""
    source = HEADER + textwrap.dedent(f"""\
        base = 0
        for extra in {[1] + [0] * zeros!r}:
            GymRuntimeConfig(
                agent="a", agent_config="a.yaml", resources_server="m", concurrency=base + extra
            )
            base = 1
        """)
    assert _findings(source, "ES109") == []
