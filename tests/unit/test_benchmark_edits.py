"""The benchmarks' typing trace (issue 26) does what its table claims: edits that shift lines,
at the top level, in a function body and in a class body, ending on the text it started from."""

from __future__ import annotations

import ast
import sys
from collections import Counter
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"
sys.path.insert(0, str(BENCHMARKS))

import generate  # noqa: E402
from edits import TRACE_KINDS, TRACE_PLACES, Edit, make_edits, typing_trace  # noqa: E402


@pytest.fixture(scope="module")
def job() -> str:
    return generate.job_source(5000, seed=5000)


def test_the_trace_covers_every_kind_at_every_place(job: str) -> None:
    trace = typing_trace(job)
    seen = Counter(edit.where.rpartition(":")[0] + "/" + edit.kind for edit in trace)
    for place in TRACE_PLACES:
        for kind in TRACE_KINDS:
            assert seen[f"{place}/{kind}"] >= 1, (place, kind)
    assert seen[f"{TRACE_PLACES[0]}/type"] > 10  # typed character by character


def test_each_edit_but_typing_shifts_the_later_lines_and_the_trace_ends_where_it_began(
    job: str,
) -> None:
    lines = job.split("\n")
    shifted: Counter[str] = Counter()
    for edit in typing_trace(job):
        before = len(lines)
        edit.apply(lines)
        if len(lines) != before:
            shifted[edit.kind] += 1
    assert "\n".join(lines) == job
    assert set(shifted) == {"enter", "paste", "delete-block", "join"}
    assert all(count == len(TRACE_PLACES) for count in shifted.values())


def test_the_pasted_block_is_code_of_its_place(job: str) -> None:
    lines = job.split("\n")
    for edit in typing_trace(job):
        edit.apply(lines)
        if edit.kind in {"enter", "paste", "delete-block", "join"}:
            ast.parse("\n".join(lines))  # what a user pastes and deletes is whole code


def test_a_multi_line_edit_applies_like_an_lsp_range() -> None:
    lines = ["a = 1", "b = 2", "c = 3"]
    Edit(0, 3, 3, "\n", "x", end_line=2).apply(lines)  # from (0, 3) to (2, 3)
    assert lines == ["a =", " 3"]
    Edit(0, 3, 0, "", "x", end_line=1).apply(lines)
    assert lines == ["a = 3"]


def test_the_in_line_edits_are_unchanged(job: str) -> None:
    edits = make_edits(job, 10, seed=4997)
    assert all(edit.end_line is None for edit in edits)
    assert {edit.where for edit in edits} <= {"inside", "between"}


@pytest.mark.parametrize("mode", [["--incremental"], ["--trace", "--kinds", "enter,type"]])
def test_the_edit_profiler_runs_against_todays_engine(mode: list[str]) -> None:
    """``benchmarks/profile_edit.py`` calls the engine's internals (the interpreter, the
    importers' step): it must follow them when they change, not rot until someone profiles."""
    import subprocess

    done = subprocess.run(
        [
            sys.executable,
            str(BENCHMARKS / "profile_edit.py"),
            "--size",
            "500",
            "--edits",
            "3",
            "--top",
            "3",
            *mode,
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "ncalls" in done.stdout  # the profile was printed
