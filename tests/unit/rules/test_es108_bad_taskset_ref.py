"""ES108 bad-taskset-ref: a `TasksetRef(...)` whose literal fails the pattern of reference §5,
or a malformed plain string passed as `tasks=` to a sync taskset call that passes the shape
checks (§4.4 c, mistake M10)."""

from __future__ import annotations

import pytest
from rule_support import Result, analyse, results

# The verdict table of reference §5 (verified against the SDK), plus a few more.
VALID = [
    "suite",
    "default/suite",
    "default/suite#v2",
    "suite#abc",
    "ws/suite.v1-rc_2",
    "ws/suite#a.b-c_d",
    "-/-",
    "..",
    "ws/..",
    "données/suite",
    "日本/タスク",
    "QA/Smoke",
    "qa/smoke#" + "0123456789abcdef" * 4,
    "qa/smoke#v3",
]
INVALID = [
    "",
    "ws/a/b",
    "/suite",
    "suite/",
    "ws//suite",
    "ws/na me",
    " suite",
    "suite ",
    "ws/suite\n",
    "ws/suite#",
    "ws/suite#a#b",
    "ws/suite#tag/x",
    "ws/suite@v1",
    "ws:suite",
    "ws\\suite",
    "ws/suite?x=1",
    "~ws/suite",
    "qa team/smoke",
    "org/qa/smoke",
    "qa/smoke#",
]


@pytest.mark.parametrize("ref", VALID, ids=repr)
def test_valid_taskset_ref(ref: str) -> None:
    assert results(f"TasksetRef({ref!r})\n") == []


@pytest.mark.parametrize("ref", INVALID, ids=repr)
def test_invalid_taskset_ref(ref: str) -> None:
    assert results(f"TasksetRef({ref!r})\n") == [(1, "ES108")]


@pytest.mark.parametrize("ref", VALID, ids=repr)
def test_valid_plain_string_tasks(ref: str) -> None:
    assert results(f"client.evaluator.submit(tasks={ref!r}, target=gym_runner)\n") == []


@pytest.mark.parametrize("ref", INVALID, ids=repr)
def test_invalid_plain_string_tasks(ref: str) -> None:
    source = f"client.evaluator.submit(tasks={ref!r}, target=gym_runner)\n"
    assert results(source) == [(1, "ES108")]


CASES: list[tuple[str, str, Result]] = [
    (
        "M10",
        """
        TasksetRef("qa team/smoke")
        TasksetRef("org/qa/smoke")
        TasksetRef("qa/smoke#")
        """,
        [(1, "ES108"), (2, "ES108"), (3, "ES108")],
    ),
    (
        "anchored on the string literal's line",
        """
        ref = TasksetRef(
            "qa/smoke@v2"
        )
        """,
        [(2, "ES108")],
    ),
    ("root= keyword", 'TasksetRef(root="qa team/smoke")\n', [(1, "ES108")]),
    ("root= keyword, valid", 'TasksetRef(root="qa/smoke")\n', []),
    ("model_validate", 'TasksetRef.model_validate("a/b/c")\n', [(1, "ES108")]),
    ("model_validate, valid", 'TasksetRef.model_validate("qa/smoke")\n', []),
    ("bytes are coerced", 'TasksetRef(b"ws/name")\n', []),
    (
        "a string bound to a name first: reported at the literal",
        """
        name = "qa/mcqa nightly"
        ref = TasksetRef(name)
        """,
        [(1, "ES108")],
    ),
    (
        "reported once, at construction, not again at the submit",
        """
        ref = TasksetRef("a/b/c")
        client.evaluator.submit(tasks=ref, target=gym_runner)
        client.evaluator.submit(tasks=ref, target=gym_runner)
        """,
        [(1, "ES108")],
    ),
    (
        "a plain string on its own line in a multi-line call",
        """
        client.evaluator.submit(
            tasks="qa/smoke@v2",
            target=gym_runner,
        )
        """,
        [(2, "ES108")],
    ),
    (
        "a plain string bound to a name: the literal's line",
        """
        suite = "qa:smoke"
        client.evaluator.submit(tasks=suite, target=gym_runner)
        """,
        [(1, "ES108")],
    ),
    (
        "a plain string is not checked when the target check fails",
        "client.evaluator.submit(tasks='a/b/c', target=cfg)\n",
        [(1, "ES104")],
    ),
    (
        "a plain string is not checked on a mixed call",
        "client.evaluator.submit(tasks='a/b/c', target=gym_runner, metric=em)\n",
        [(1, "ES101")],
    ),
    (
        "a plain string is not checked on an async call",
        """
        async def main():
            await aclient.evaluator.submit(tasks="a/b/c", target=gym_runner)
        """,
        [(2, "ES103")],
    ),
    (
        "an unbound string is not a taskset",
        """
        label = "not a taskset"
        print(label)
        """,
        [],
    ),
    (
        "a computed reference is unknown",
        """
        def submit_suite(name):
            client.evaluator.submit(tasks=f"qa/{name}", target=gym_runner)
            client.evaluator.submit(tasks=TasksetRef(name), target=gym_runner)
        """,
        [],
    ),
    (
        "a reference built in a loop over valid literals",
        """
        for suite in ["qa/smoke", "qa/mcqa-nightly#v3"]:
            client.evaluator.submit(tasks=TasksetRef(suite), target=gym_runner)
        """,
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es108(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es108_kind_and_span() -> None:
    line = 'TasksetRef("qa team/smoke")'
    (finding,) = analyse(line + "\n")
    assert finding.kind == "bad-taskset-ref"
    assert finding.span.col == line.index('"')
    assert finding.span.end_col == len(line) - 1


def test_a_runner_built_without_arguments_is_not_a_taskset_reference() -> None:
    """Only TasksetRef constructions are checked (runners used to be, so a runner built with no
    arguments was reported as 'TasksetRef() needs the reference string')."""
    snippet = """
from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import HarborAgentTaskRunner
from nemo_evaluator_sdk.agent_eval.runtimes.callable_runtime import CallableAgentTaskRunner
runner = HarborAgentTaskRunner()
other = CallableAgentTaskRunner("not a taskset reference at all")
"""
    assert [f for f in analyse(snippet) if f.code == "ES108"] == []


# What pydantic's str refuses whatever the content (the refusal table of
# tests/contract/test_refusal_table.py holds the whole list to the real SDK).
NOT_A_REFERENCE = [
    "3",
    "pathlib.PurePosixPath('qa/smoke')",
    "pathlib.Path('qa/smoke')",
    "{'a': 1}",
    "b'\\xff'",
    "threading.Lock()",
    "(s for s in 'ab')",
    "zip('ab', 'cd')",
]
STRING_LIKE = ["b'qa/smoke'", "bytearray(b'qa/smoke')", "Color.RED", "Level.ONE"]
ENUMS = (
    "import enum, pathlib, threading\n"
    "class Color(enum.Enum):\n    RED = 'red'\n"
    "class Level(enum.IntEnum):\n    ONE = 1\n"
)


@pytest.mark.parametrize("value", NOT_A_REFERENCE)
def test_a_value_that_is_no_string_is_refused(value: str) -> None:
    assert results(f"{ENUMS}TasksetRef({value})\n") == [(6, "ES108")]
    submit = f"client.evaluator.submit(tasks={value}, target=gym_runner)\n"
    assert results(ENUMS + submit) == [(6, "ES108")]


@pytest.mark.parametrize("value", STRING_LIKE)
def test_what_pydantic_makes_a_string_of_is_a_reference(value: str) -> None:
    assert results(f"{ENUMS}TasksetRef({value})\n") == []
    assert results(f"{ENUMS}client.evaluator.submit(tasks={value}, target=gym_runner)\n") == []


@pytest.mark.parametrize(
    "value", ["[]", "[{'name': 'qa/smoke'}]", "list_of_tasks()", "None", "iter(tasks)"]
)
def test_tasks_may_be_a_list_of_task_inputs(value: str) -> None:
    """``submit(tasks=...)`` also takes a list of task dicts: only surely-wrong items count."""
    found = results(f"client.evaluator.submit(tasks={value}, target=gym_runner)\n")
    assert [r for r in found if r[1] == "ES108"] == []
