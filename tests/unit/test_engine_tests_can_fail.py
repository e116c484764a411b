"""The engine's test helpers fail when the engine does.

Each helper the rule, idiom and resolution tests use is run against a sabotaged interpreter
(every statement raises) on a snippet whose correct answer is "nothing reported". Before the
suites ran strict, every such "not diagnosed" case passed against a dead engine (191 of 535).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path

import pytest

from evalsubmit.analysis import analyze_source
from evalsubmit.analysis.interp.interpreter import Interpreter
from evalsubmit.analysis.report import EngineFailure, strict_internal_errors
from unit import test_resolution
from unit.idioms import idiom_support
from unit.rules import rule_support

CLEAN = """\
def launch(client, suite=None):
    if suite is None:
        return None
    return client.evaluator.submit(tasks=suite, target=gym_runner)
"""

HELPERS: dict[str, Callable[[], object]] = {
    "rule_support.results": lambda: rule_support.results(CLEAN),
    "rule_support.only": lambda: rule_support.only(CLEAN, "ES104"),
    "idiom_support.check": lambda: idiom_support.check(CLEAN),
    "idiom_support.reported": lambda: idiom_support.reported(CLEAN),
    "test_resolution.results": lambda: test_resolution.results(rule_support.source_of(CLEAN)),
}


@pytest.fixture
def dead_interpreter(monkeypatch: pytest.MonkeyPatch) -> None:
    def statement(self: Interpreter, node: ast.stmt) -> None:
        raise RuntimeError("sabotaged")

    monkeypatch.setattr(Interpreter, "statement", statement)


@pytest.mark.parametrize("helper", HELPERS, ids=str)
def test_a_clean_snippet_passes_with_a_working_engine(helper: str) -> None:
    HELPERS[helper]()


@pytest.mark.parametrize("helper", HELPERS, ids=str)
def test_the_helper_fails_against_a_dead_interpreter(helper: str, dead_interpreter: None) -> None:
    with pytest.raises(EngineFailure, match="sabotaged"):
        HELPERS[helper]()


@pytest.mark.engine_bugs_expected
def test_production_records_instead_of_raising(dead_interpreter: None) -> None:
    """Outside the strict mode the same bug is recorded, and a clean-looking result returns:
    exactly what the strict mode exists to catch."""
    report = analyze_source(rule_support.source_of(CLEAN), path=Path("snippet.py"))
    assert report.findings == ()
    assert report.internal_errors
    assert all("RuntimeError: sabotaged" in error for error in report.internal_errors)


@pytest.mark.engine_bugs_expected
def test_strictness_nests_and_ends(dead_interpreter: None) -> None:
    with strict_internal_errors():
        with strict_internal_errors():
            pass
        with pytest.raises(EngineFailure):
            rule_support.results(CLEAN)
    rule_support.results(CLEAN)  # recorded again, not raised
