"""A fix never introduces a finding (issue 28): over every file of ``examples/`` and of the idiom
corpus (``tests/contract/idioms``), each fix offered, safe or unsafe, is applied alone and the
file checked again in its project: every finding then must have been there before (same code,
same message but for the line numbers it names, which a fix may move), no more of each, and
fewer of the one fixed. Fix-all with ``--unsafe-fixes`` (every fix, round after round) leaves
nothing that was not there before either.

The analysis runs with a ``default-taskset``, so that ES105's fix (which names the taskset to
run) is filled in and checked too; without one, it is not offered at all (a placeholder
taskset would be a malformed reference, ES108): checked as well."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path

import pytest

from evalsubmit.analysis import AnalysisOptions, Project, analyze_source
from evalsubmit.analysis.engine.fixes import fix_source, parses
from evalsubmit.analysis.report import ModuleReport
from evalsubmit.core.edits import apply_edits
from evalsubmit.core.findings import Applicability, Finding

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
CORPUS = REPO / "tests" / "contract" / "idioms"
FILLED = AnalysisOptions(default_taskset="qa/smoke")


def _project_root(path: Path) -> Path:
    if path.is_relative_to(CORPUS):  # idioms/<group>/<case>/...: each case is a project
        return CORPUS.joinpath(*path.relative_to(CORPUS).parts[:2])
    rel = path.relative_to(EXAMPLES)
    return EXAMPLES if len(rel.parts) == 1 else EXAMPLES / rel.parts[0]


def _files() -> list[Path]:
    found = [*EXAMPLES.rglob("*.py"), *CORPUS.rglob("*.py")]
    return sorted(p for p in found if "__pycache__" not in p.parts)


FILES = _files()


def _analyse(text: str, path: Path, options: AnalysisOptions = FILLED) -> ModuleReport:
    project = Project(root=_project_root(path))
    return analyze_source(text, path=path, project=project, options=options)


def _kinds(findings: Iterable[Finding]) -> Counter[tuple[str, str]]:
    # "(when rerun() is called at line 131)": lines move when a fix adds or removes one
    return Counter((f.code, re.sub(r"line \d+", "line N", f.message)) for f in findings)


def test_the_files_are_many_and_carry_every_kind_of_fix() -> None:
    """The property is only as strong as its inputs: they must offer fixes of every rule
    that has one, safe and unsafe."""
    assert len(FILES) > 250
    offered: set[tuple[str, Applicability]] = set()
    for path in FILES:
        if path.is_relative_to(EXAMPLES):  # the examples plant every rule's mistakes
            for f in _analyse(path.read_text("utf-8"), path).findings:
                offered.update((f.code, fix.applicability) for fix in f.fixes)
    assert {code for code, _ in offered} >= {"ES101", "ES102", "ES105", "ES107", "ES109"}
    assert {kind for _, kind in offered} == {Applicability.SAFE, Applicability.UNSAFE}


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_no_fix_introduces_a_finding(path: Path) -> None:
    text = path.read_text("utf-8")
    report = _analyse(text, path)
    before = _kinds(report.findings)
    fixes = [(f, fix) for f in report.findings for fix in f.fixes]
    for finding, fix in fixes:
        assert fix.placeholder is None, "a placeholder left in a fix the CLI offers"
        fixed = apply_edits(text, list(fix.edits))
        assert parses(fixed), (finding.code, fix.title)
        after = _kinds(_analyse(fixed, path).findings)
        assert not after - before, (fix.title, sorted(after - before))
        (key,) = _kinds([finding])
        assert after[key] < before[key], f"{fix.title}: not fixed"
    if fixes:
        outcome = fix_source(text, report, lambda t: _analyse(t, path), unsafe=True)
        assert outcome.failure is None and outcome.fixed > 0
        assert not _kinds(outcome.report.findings) - before


def test_es105_offers_no_fix_without_a_default_taskset() -> None:
    """Without ``default-taskset`` the CLI's analysis drops ES105's fix rather than write a
    placeholder taskset; with one, the fix writes it (checked above to add no finding)."""
    found = 0
    for path in FILES:
        text = path.read_text("utf-8")
        if "metric" not in text:
            continue
        plain = [f for f in _analyse(text, path, AnalysisOptions()).findings if f.code == "ES105"]
        filled = [f for f in _analyse(text, path).findings if f.code == "ES105"]
        assert [f.span for f in plain] == [f.span for f in filled]
        assert all(not f.fixes for f in plain)
        for f in filled:
            if f.fixes:
                found += 1
                assert any('tasks="qa/smoke"' in e.new_text for e in f.fixes[0].edits)
    assert found >= 3
