"""Analysing a notebook as a module: its cells joined (``core.cells.CellMap``), findings mapped
back to the cells.

The module is analysed under the notebook's own path, so configuration, per-file ignores and
the project's imports apply as to a ``.py`` file. Each finding is given in the coordinates of
the cell it lies in (1-based line in the cell, code-point columns); a fix whose edits leave
that cell is dropped (a fix never spans cells in the file either). A cell that does not parse
is ES100 in that cell: the module has it blanked, so the rest of the notebook is checked.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from evalsubmit.analysis.engine.analyze import analyze_source
from evalsubmit.analysis.engine.options import AnalysisOptions
from evalsubmit.analysis.report import ModuleReport
from evalsubmit.analysis.rules.es100_invalid_syntax import RULE as ES100
from evalsubmit.core.cells import Cell, CellMap, CellSyntaxError
from evalsubmit.core.findings import Edit, Finding, Fix, Span
from evalsubmit.core.records import record, replace
from evalsubmit.workspace.project import Project


@record
class CellFinding:
    """A finding in one cell: ``cell`` is the index in all of the notebook's cells (0-based;
    ruff and editors show ``cell`` + 1), ``finding.span`` is relative to that cell."""

    cell: int
    finding: Finding


@record(slots=False)
class NotebookReport:
    cell_map: CellMap
    module: ModuleReport
    """The report of :attr:`CellMap.text` (module coordinates: previews, submits)."""
    findings: tuple[CellFinding, ...]


def analyze_notebook(
    cells: Sequence[Cell],
    *,
    path: Path | None = None,
    project: Project | None = None,
    options: AnalysisOptions | None = None,
) -> NotebookReport:
    options = options or AnalysisOptions()
    cell_map = CellMap.build(cells)
    module = analyze_source(cell_map.text, path=path, project=project, options=options)
    mapped = [item for item in map(lambda f: to_cell(cell_map, f), module.findings) if item]
    if options.enabled(ES100.code):
        mapped.extend(_syntax_finding(error) for error in cell_map.cell_syntax_errors)
    mapped.sort(key=lambda item: (item.cell, item.finding.span, item.finding.code))
    return NotebookReport(cell_map, module, tuple(mapped))


def to_cell(cell_map: CellMap, finding: Finding) -> CellFinding | None:
    """``finding`` (module coordinates) in its cell; None when it lies on no cell's own text
    (masked IPython: no rule reports there)."""
    start = _locate(cell_map, finding.span.line, finding.span.col)
    if start is None:
        return None
    span = _cell_span(cell_map, start, finding.span)
    fixes = tuple(
        fix for fix in map(lambda f: _cell_fix(cell_map, start[0], f), finding.fixes) if fix
    )
    return CellFinding(start[0], replace(finding, span=span, fixes=fixes))


def _locate(cell_map: CellMap, line: int, col: int) -> tuple[int, int, int] | None:
    return cell_map.locate(line - 1, col)


def _cell_span(cell_map: CellMap, start: tuple[int, int, int], span: Span) -> Span:
    end = _locate(cell_map, span.end_line, span.end_col)
    cell, line, col = start
    if end is None or end[0] != cell:  # ends past the cell: shown to the end of its first line
        lines = cell_map.text.split("\n")
        return Span(line + 1, col, line + 1, max(col, len(lines[span.line - 1])))
    return Span(line + 1, col, end[1] + 1, end[2])


def _cell_fix(cell_map: CellMap, cell: int, fix: Fix) -> Fix | None:
    edits: list[Edit] = []
    for edit in fix.edits:
        start = _locate(cell_map, edit.span.line, edit.span.col)
        end = _locate(cell_map, edit.span.end_line, edit.span.end_col)
        if start is None or end is None or start[0] != cell or end[0] != cell:
            return None
        edits.append(Edit(Span(start[1] + 1, start[2], end[1] + 1, end[2]), edit.new_text))
    return replace(fix, edits=tuple(edits))


def _syntax_finding(error: CellSyntaxError) -> CellFinding:
    span = Span(error.line + 1, error.col, error.line + 1, error.col + 1)
    message = f"syntax error: {error.message} (this cell is not checked)"
    return CellFinding(error.cell, Finding(ES100.code, ES100.kind, ES100.severity, message, span))
