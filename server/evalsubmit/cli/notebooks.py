"""``check`` on a Jupyter notebook: its code cells analysed as one module
(:func:`evalsubmit.analysis.engine.notebook.analyze_notebook`), findings reported per cell
(``nb.ipynb:cell 3:4:12``), ``--fix``/``--diff`` applied to the cells' sources and the file
written back with every other byte as it was (:meth:`Notebook.with_sources`).

A file that is no nbformat 4 notebook is a skipped file with the reason (``--strict`` fails).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.analysis.engine.notebook import CellFinding, analyze_notebook
from evalsubmit.analysis.engine.options import AnalysisOptions
from evalsubmit.cli.check_flags import FixRequest
from evalsubmit.core import records
from evalsubmit.core.edits import apply_edits
from evalsubmit.core.findings import Edit, Finding
from evalsubmit.core.lines import split_lines
from evalsubmit.core.sourcefile import UnreadableSource
from evalsubmit.workspace.notebook import Notebook, read_notebook
from evalsubmit.workspace.project import Project

if TYPE_CHECKING:
    from evalsubmit.cli.fixing import FileFix
    from evalsubmit.workspace.observed import Grounds


@dataclass(slots=True)
class NotebookCheck:
    """What ``check`` reports for a notebook (``check_analysis.FileResult``'s fields)."""

    findings: list[Finding] = field(default_factory=list)
    error: str | None = None
    internal: tuple[str, ...] = ()
    skipped: str | None = None
    fix: FileFix | None = None
    cell_lines: dict[int, list[str]] | None = None
    observed: Grounds | None = None
    """What the analysis stood on, for the result cache (keyed by the notebook file's text)."""


def analyse_notebook(
    path: Path,
    options: AnalysisOptions,
    project: Project,
    fix: FixRequest | None,
    text: str | None = None,
    observe: bool = False,
) -> NotebookCheck:
    """Check the notebook at ``path`` (or ``text``, read from stdin, as that notebook)."""
    from evalsubmit.workspace.notebook import parse_notebook

    try:
        if text is None:
            notebook = read_notebook(path, max_bytes=4 * options.max_chars)
        else:
            notebook = parse_notebook(path, text)
    except UnreadableSource as error:
        return NotebookCheck(skipped=error.reason)
    if not notebook.is_python:  # its code cells are another language: nothing to check
        return NotebookCheck(skipped=f"not a Python notebook ({notebook.language})")
    checked = records.replace(options, summaries=False)
    try:
        facts = None
        if observe:  # what the result stands on, for the cache (as check_analysis._analyse_one)
            from evalsubmit.workspace.observed import grounds, observing

            with observing() as journal:
                report = analyze_notebook(
                    notebook.cells, path=path, project=project, options=checked
                )
            facts = grounds(notebook.text, journal)
        else:
            report = analyze_notebook(notebook.cells, path=path, project=project, options=checked)
        findings = [_placed(item) for item in report.findings]
        file_fix = None
        if fix is not None:
            file_fix, notebook, findings = _fixed(notebook, report.findings, fix, checked, project)
    except Exception as error:  # one bad file must not stop the run
        return NotebookCheck(error=f"internal error: {type(error).__name__}: {error}")
    return NotebookCheck(
        findings,
        skipped=report.module.skipped,
        internal=report.module.internal_errors,
        fix=file_fix,
        cell_lines=_cell_lines(notebook),
        observed=facts,
    )


def _cell_lines(notebook: Notebook) -> dict[int, list[str]]:
    return {i: split_lines(c.text) for i, c in enumerate(notebook.cells) if c.kind == "code"}


def cell_lines_of(text: str) -> dict[int, list[str]] | None:
    """The code cells' lines of the notebook whose file text is ``text`` (a cached result's)."""
    from evalsubmit.workspace.notebook import InvalidNotebook, parse_notebook

    try:
        return _cell_lines(parse_notebook(Path("notebook.ipynb"), text))
    except InvalidNotebook:
        return None


def _placed(item: CellFinding) -> Finding:
    return records.replace(item.finding, cell=item.cell)


def _fixed(
    notebook: Notebook,
    found: Iterable[CellFinding],
    request: FixRequest,
    options: AnalysisOptions,
    project: Project,
) -> tuple[FileFix, Notebook, list[Finding]]:
    """One round of the findings' applicable fixes, per cell (edits that overlap an earlier
    one are left for the next run); the fix, the notebook as fixed, its findings."""
    from evalsubmit.cli.fixing import FileFix
    from evalsubmit.workspace.notebook import parse_notebook

    before = [_placed(item) for item in found]
    edits: dict[int, list[Edit]] = {}
    count = 0
    for item in found:
        chosen = item.finding.applicable_fix(request.unsafe)
        if chosen is None:
            continue
        taken = edits.setdefault(item.cell, [])
        if any(_overlaps(new, old) for new in chosen.edits for old in taken):
            continue
        taken.extend(chosen.edits)
        count += 1
    sources = {cell: apply_edits(notebook.cells[cell].text, e) for cell, e in edits.items()}
    fixed_text = notebook.with_sources(sources)
    original = notebook.original
    fixed_notebook = parse_notebook(notebook.path, fixed_text)
    report = analyze_notebook(
        fixed_notebook.cells, path=notebook.path, project=project, options=options
    )
    encoding = "utf-8-sig" if original.startswith("\ufeff") else "utf-8"
    file_fix = FileFix(
        notebook.path,
        original.removeprefix("\ufeff"),
        fixed_text.removeprefix("\ufeff"),
        encoding,
        count,
        before,
        cells=tuple(
            (cell, notebook.cells[cell].text, text)
            for cell, text in sorted(sources.items())
            if text != notebook.cells[cell].text
        ),
    )
    return file_fix, fixed_notebook, [_placed(item) for item in report.findings]


def _overlaps(a: Edit, b: Edit) -> bool:
    return not (
        (a.span.end_line, a.span.end_col) < (b.span.line, b.span.col)
        or (b.span.end_line, b.span.end_col) < (a.span.line, a.span.col)
    )


_CELL_PLACE = re.compile(r"^(?P<path>.+\.ipynb):cell (?P<cell>\d+):(?P<rest>\d+(?::\d+)?)$", re.I)


def parse_cell_location(location: str) -> tuple[Path, int, str] | None:
    """``NB.ipynb:cell N:LINE[:COL]`` (what ``check`` prints) -> (path, cell index, the
    ``LINE[:COL]`` part); None when ``location`` names no cell."""
    match = _CELL_PLACE.match(location)
    if match is None or int(match["cell"]) < 1:
        return None
    return Path(match["path"]), int(match["cell"]) - 1, match["rest"]


def module_at(path: Path, cell: int, line: int, col: int) -> tuple[str, int, int] | str:
    """The module a notebook is analysed as, and the position in it of ``line`` (1-based) and
    ``col`` (0-based, -1: the line) of cell ``cell`` (0-based among all cells); or why not."""
    from evalsubmit.core.cells import CellMap

    try:
        notebook = read_notebook(path)
    except UnreadableSource as error:
        return f"cannot read {path}: {error.reason}"
    if not 0 <= cell < len(notebook.cells):
        return f"{path} has {len(notebook.cells)} cells; there is no cell {cell + 1}"
    if notebook.cells[cell].kind != "code":
        return f"cell {cell + 1} of {path} is a {notebook.cells[cell].kind} cell, not code"
    cell_map = CellMap.build(notebook.cells)
    found = cell_map.position(cell, line - 1, max(col, 0))
    if found is None:
        lines = len(split_lines(notebook.cells[cell].text))
        return f"cell {cell + 1} of {path} has {lines} lines; there is no line {line}"
    return cell_map.text, found[0] + 1, col if col < 0 else found[1]


def located(location: str) -> tuple[Path, int, int, str | None] | str | None:
    """``PATH:LINE[:COL]``, or ``NB.ipynb:cell N:LINE[:COL]``, as (path, line, 0-based col or
    -1, the module's text for a notebook cell, else None: the file is read as Python); a
    message when the cell position is not in the notebook; None when malformed."""
    from evalsubmit.cli.common import parse_location

    in_cell = parse_cell_location(location)
    if in_cell is None:
        parsed = parse_location(location)
        return None if parsed is None else (*parsed, None)
    path, cell, rest = in_cell
    parsed = parse_location(f"{path}:{rest}")
    if parsed is None:
        return None
    found = module_at(path, cell, parsed[1], parsed[2])
    if isinstance(found, str):
        return found
    text, line, col = found
    return path, line, col, text
