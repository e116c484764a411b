"""An analysis that hands its findings on early (``on_findings``: the editor publishes them
before the runner previews and submit summaries are made) ends with exactly the report of one
that does not, in one go or over a document's successive edits; the early report has the same
findings and no summaries, and it comes before any summary is made."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from test_examples import EXAMPLES, example_files, project_root
from test_incremental_in_place import everything
from test_incremental_programs import HEADER, edit, statement

from evalsubmit.analysis import DocumentAnalyzer, ModuleReport, Project
from evalsubmit.analysis.engine import summaries


def _early_and_final(
    analyzer: DocumentAnalyzer, text: str
) -> tuple[list[ModuleReport], ModuleReport]:
    early: list[ModuleReport] = []
    final = analyzer.analyze(text, reverse=False, on_findings=early.append)
    return early, final


@pytest.mark.parametrize("path", example_files(), ids=lambda p: str(p.relative_to(EXAMPLES)))
def test_the_final_report_is_the_one_made_in_one_go(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    project = Project(project_root(path))
    early, final = _early_and_final(DocumentAnalyzer(path, project), text)
    alone = DocumentAnalyzer(path, project).analyze(text, reverse=False)
    assert everything(final) == everything(alone)
    if final.skipped is not None:
        assert early == []
        return
    assert len(early) == 1
    assert early[0].findings == final.findings
    assert early[0].dependencies == final.dependencies
    assert (early[0].runners, early[0].submits) == ((), ())


@pytest.mark.parametrize("seed", range(3))
def test_over_edits_the_reports_stay_the_same(tmp_path: Path, seed: int) -> None:
    path = tmp_path / "test_job.py"
    project = Project(tmp_path)
    early_first, in_one_go = DocumentAnalyzer(path, project), DocumentAnalyzer(path, project)
    rng = random.Random(seed)
    lines = [statement(rng) for _ in range(6)]
    for step in range(25):
        lines = edit(lines, rng) if step else lines
        text = HEADER + "\n".join(lines) + "\n"
        early, final = _early_and_final(early_first, text)
        assert everything(final) == everything(in_one_go.analyze(text, reverse=False)), step
        assert [r.findings for r in early] == [final.findings], step


def test_findings_are_handed_on_before_any_summary_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events: list[str] = []
    previews = summaries.runner_previews  # imported by the analysis when it makes them

    def recorded(ctx: object) -> object:
        events.append("summary")
        return previews(ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(summaries, "runner_previews", recorded)
    path = EXAMPLES / "nightly_eval.py"
    analyzer = DocumentAnalyzer(path, Project(EXAMPLES))
    final = analyzer.analyze(
        path.read_text(encoding="utf-8"),
        reverse=False,
        on_findings=lambda report: events.append("findings"),
    )
    assert final.runners, "the example has runners to preview"
    assert events[0] == "findings"
    assert events.count("findings") == 1
    assert "summary" in events
