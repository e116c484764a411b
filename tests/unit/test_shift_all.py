"""Moving every cached result in one pass (``Shifter.move_all``, what a line shift does) gives
each result what moving it alone gives it (``Shifter.move``), its reach included, and drops
the same keys."""

from __future__ import annotations

import copy
import random
from pathlib import Path

import pytest

from evalsubmit.analysis import DocumentAnalyzer, Project
from evalsubmit.analysis.engine.line_map import LineMap, Unmapped, _run_pair
from evalsubmit.analysis.engine.results import GroupResult
from evalsubmit.analysis.engine.shift import Shifter

ROOT = Path(__file__).resolve().parents[2]
FILES = ["examples/nightly_eval.py", "examples/ci_submit.py", "examples/hydra_params.py"]


def _results(relative: str) -> tuple[Path, dict[str, GroupResult], int]:
    """The cached results of an analysis of the file, and its line count."""
    path = ROOT / relative
    text = path.read_text(encoding="utf-8")
    analyzer = DocumentAnalyzer(path, Project(path.parent))
    analyzer.analyze(text)
    analyzer.analyze(text + "\n")  # (a line shift at the end: every reach known)
    return path, analyzer.caches.groups, text.count("\n") + 2


def _random_map(rng: random.Random, last: int) -> LineMap:
    """Runs of lines moved alike (some not moved, some with no new place), with the common
    shapes: nothing moved above an edit, everything below it moved alike."""
    pairs = []
    line = 1
    edit = rng.randint(1, last)
    delta = rng.choice((-3, -1, 1, 2, 20))
    while line <= last:
        size = rng.randint(1, 12)
        end = min(last, line + size - 1)
        if end < edit:
            pairs.append(_run_pair(line, end, 0))
        elif rng.random() < 0.8:
            pairs.append(_run_pair(line, end, delta if line > edit else rng.choice((0, delta))))
        line = end + 1
    return LineMap(pairs, ordered=True)


def _each(shifter: Shifter, results: dict[str, GroupResult]) -> list[str]:
    """What a shift did before ``move_all``: every result with a position, one at a time."""
    moved: set[int] = set()
    unmapped: set[int] = set()
    dropped = []
    for key, result in results.items():
        if id(result) not in moved:
            moved.add(id(result))
            try:
                shifter.move(result)
            except Unmapped:
                unmapped.add(id(result))
        if id(result) in unmapped:
            dropped.append(key)
    return dropped


def _fields(result: GroupResult) -> tuple[object, ...]:
    return (result.findings, result.runners, result.submits, result.remote, result.errors)


@pytest.mark.parametrize("relative", FILES)
def test_moving_every_result_at_once_is_moving_each(relative: str) -> None:
    path, results, last = _results(relative)
    assert any(result.reach is not None for result in results.values())
    rng = random.Random(relative)
    for _ in range(25):
        lines = _random_map(rng, last)
        at_once, each = copy.deepcopy(results), copy.deepcopy(results)
        shifter, alone = Shifter(lines, path), Shifter(lines, path)
        dropped = shifter.move_all(at_once.items())
        assert dropped == _each(alone, each)
        # the reach (what the next shift reads) at once, the previews and summaries once settled
        assert [r.reach for r in at_once.values()] == [r.reach for r in each.values()]
        shifter.settle()
        alone.settle()
        assert [_fields(r) for r in at_once.values()] == [_fields(r) for r in each.values()]
