"""A notebook analysed as one module, findings in the cells they are in."""

from __future__ import annotations

from pathlib import Path

from evalsubmit.analysis.engine.notebook import NotebookReport, analyze_notebook
from evalsubmit.analysis.engine.options import AnalysisOptions
from evalsubmit.workspace.notebook import read_notebook
from evalsubmit.workspace.project import Project
from notebook_files import EVAL_CELLS, notebook, write


def _report(tmp_path: Path, options: AnalysisOptions | None = None) -> NotebookReport:
    path = write(tmp_path / "nightly.ipynb", notebook(*EVAL_CELLS))
    nb = read_notebook(path)
    return analyze_notebook(nb.cells, path=path, project=Project(root=tmp_path), options=options)


def test_a_runner_built_in_one_cell_is_checked_where_another_submits_it(tmp_path: Path) -> None:
    report = _report(tmp_path)
    found = [(item.cell, item.finding.code, item.finding.span) for item in report.findings]
    es102 = [(cell, span) for cell, code, span in found if code == "ES102"]
    assert len(es102) == 1, found
    cell, span = es102[0]
    assert cell == 6  # the submit cell, 0-based among all cells (ruff's "cell 7")
    assert (span.line, span.col) == (5, 4)  # `config=` on the cell's 5th line
    fixed = report.findings[[f.finding.code for f in report.findings].index("ES102")].finding
    fix = fixed.applicable_fix()
    assert fix is not None and len(fix.edits) == 1
    edit = fix.edits[0]  # in the cell's coordinates: applied to the cell's own text
    lines = EVAL_CELLS[6]["source"]
    start = sum(map(len, lines[: edit.span.line - 1])) + edit.span.col
    end = sum(map(len, lines[: edit.span.end_line - 1])) + edit.span.end_col
    text = "".join(lines)
    assert text[:start] + edit.new_text + text[end:] == (
        "client = NeMoPlatform(workspace='qa')\n"
        "job = client.evaluator.submit(\n"
        "    tasks=TasksetRef('qa/nightly'),\n"
        "    target=runner,\n"
        ")\n"
        "print(job.id)\n"
    )


def test_the_broken_cell_is_es100_in_that_cell_and_costs_only_it(tmp_path: Path) -> None:
    report = _report(tmp_path)
    es100 = [item for item in report.findings if item.finding.code == "ES100"]
    assert [(item.cell, item.finding.span.line, item.finding.span.col) for item in es100] == [
        (5, 1, 11)
    ]
    assert "this cell is not checked" in es100[0].finding.message
    assert not [item for item in report.findings if item.cell in {0, 3}]  # %pip, ! cells clean


def test_ignored_es100_is_not_reported(tmp_path: Path) -> None:
    report = _report(tmp_path, AnalysisOptions(ignore=frozenset({"ES100"})))
    assert [item.finding.code for item in report.findings] == ["ES102"]


def test_a_cell_position_maps_to_the_module_for_preview(tmp_path: Path) -> None:
    report = _report(tmp_path)
    # cell 6, its second line (0-based), column 10: as the server and the CLI ask for it
    line, col = report.cell_map.position(6, 1, 10) or (-1, 0)
    assert report.cell_map.text.split("\n")[line] == "job = client.evaluator.submit("
    assert report.module.submit_at(line + 1, col) is not None
    assert report.cell_map.position(1, 0, 0) is None  # markdown is no part of the module
