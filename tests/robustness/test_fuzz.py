"""Fuzz the analysis core (short run): it returns a report for any text, never raises, and
finishes each input quickly. The long run is ``python -m tests.robustness.fuzz_long``.

Each input is timed with ``time.perf_counter``; the assertion is generous (``LIMIT_S``, the
machines are shared) while the issue's target is 1 s: the slowest input is printed (``-s``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from evalsubmit.analysis import ModuleReport

from .inputs import (
    ENCODING_OPS,
    EXAMPLES,
    TARGET_S,
    Case,
    Stats,
    analyse,
    decoded_files,
    example_files,
    generated_python,
    hypothesmith_available,
    mutated_examples,
    odd_encodings,
    random_bytes,
    sdk_programs,
    truncations,
)

LIMIT_S = float(os.environ.get("EVALSUBMIT_FUZZ_LIMIT_S", "5"))
SHORT = settings(
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
    print_blob=True,
)

STRATEGIES: dict[str, tuple[Callable[[], st.SearchStrategy[Case]], int]] = {
    "python": (generated_python, 25),
    "sdk": (sdk_programs, 50),
    "mutation": (mutated_examples, 150),
    "bytes": (random_bytes, 80),
    "encoding": (odd_encodings, 80),
    "decoded": (decoded_files, 60),
}


def _report(name: str, stats: Stats) -> None:
    over = " (over the 1 s target)" if stats.max_s > TARGET_S else ""
    print(f"\n[fuzz {name}] {stats.summary()}{over}")
    assert stats.max_s < LIMIT_S, stats.summary()


@pytest.mark.parametrize("name", sorted(STRATEGIES))
def test_engine_never_raises(name: str) -> None:
    make, examples = STRATEGIES[name]
    stats = Stats()

    @settings(SHORT, max_examples=examples)
    @given(make())
    def run(case: Case) -> None:
        analyse(case, stats)

    run()
    assert stats.count >= examples // 2
    _report(name, stats)


def test_truncation_at_every_offset_of_an_example() -> None:
    path = EXAMPLES / "nightly" / "runners.py"
    cases = truncations(path)
    stats = Stats()
    for case in cases:
        analyse(case, stats)
    assert stats.count == len(path.read_text(encoding="utf-8")) + 1
    _report(f"truncations of {path.name}", stats)


def test_hypothesmith_is_used() -> None:
    """The dev extra installs hypothesmith; the fallback grammar is ours (kind 'sdk')."""
    assert hypothesmith_available()


def test_every_example_is_analysed_without_skipping() -> None:
    """The seeds of the mutations are healthy inputs themselves."""
    for path in example_files():
        report = analyse(Case("example", path.read_text(encoding="utf-8"), path))
        assert report.skipped is None, (path, report.skipped)


@pytest.mark.parametrize(
    "text",
    [
        "import os\n\x1c",  # IndexError in chunks._starts_statement (found by this fuzzer)
        "import os\r\u2028from x import y\n",
        "import os\n\x1d\x1e\x1f\x85\u2029\n",
    ],
)
def test_regressions_found_by_fuzzing(text: str) -> None:
    analyse(Case("regression", text))


COMMENT = re.compile("# (?!evalsubmit)")
# Changes of form that change no finding: the same (code, line, column) must come back.
SAME_MEANING = {
    "bom": lambda text: ENCODING_OPS["bom"](text, 0),
    "crlf": lambda text: ENCODING_OPS["crlf"](text, 0),
    "cr": lambda text: ENCODING_OPS["cr"](text, 0),
    # (not in front of "evalsubmit: ignore", which must start its comment)
    "lone surrogates in comments": lambda text: COMMENT.sub("# \ud800\udfff ", text),
    "separators in comments": lambda text: COMMENT.sub("# \f\v\x1c\x85\u2028 ", text),
}


@pytest.mark.parametrize("change", sorted(SAME_MEANING))
def test_a_change_of_form_changes_no_finding(change: str) -> None:
    """Not only "never raises": a BOM, other line ends or odd characters in comments must
    leave every finding where it was (the lone surrogate lost every one, unseen by the fuzz)."""

    def where(report: ModuleReport) -> list[tuple[str, int, int]]:
        return [(f.code, f.span.line, f.span.col) for f in report.findings]

    for path in example_files():
        text = path.read_text(encoding="utf-8")
        original = analyse(Case("example", text, path))
        changed = analyse(Case(change, SAME_MEANING[change](text), path))
        assert changed.skipped == original.skipped, (path, changed.skipped)
        assert where(changed) == where(original), path
