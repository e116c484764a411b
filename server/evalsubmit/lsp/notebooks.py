"""Open notebooks (LSP 3.17 notebook document sync) and the mapping between their cells and the
one module each is analysed as.

A notebook is analysed as one module: its code cells joined in document order, IPython syntax
masked (:class:`evalsubmit.core.cells.CellMap`). The server keeps that joined text as a text
document of its own under the notebook's URI, so scheduling, snapshots, fixes and *Submit
evaluation* treat it as they treat a ``.py`` file (:mod:`.diagnostics`). Only what crosses to the
client is mapped here, between the joined text and each cell's own text: positions, ranges,
diagnostics and edits, in LSP units.

A result is mapped with the :class:`Layout` it was computed on (its notebook version), a request
with the present one: cells move, appear and go away between the two.
"""

from __future__ import annotations

import copy
import difflib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lsprotocol import types

from evalsubmit.analysis.rules import RULES
from evalsubmit.core.cells import Cell, CellMap, CellSyntaxError
from evalsubmit.core.lines import split_lines
from evalsubmit.core.records import record
from evalsubmit.lsp import convert
from evalsubmit.lsp.convert import Encoding

if TYPE_CHECKING:
    from evalsubmit.lsp.snapshot import Analysis

KEEP_LAYOUTS = 8
"""Layouts kept per notebook: results still being computed or shown were made on these."""


@record
class Layout:
    """One version of a notebook: its cells and the module they make."""

    version: int
    cell_uris: tuple[str, ...]
    """Every cell, in document order (the index is the CellMap's cell index)."""
    cell_lines: tuple[list[str], ...]
    cell_map: CellMap
    lines: list[str]
    """The lines of the joined text."""

    @classmethod
    def build(cls, version: int, cells: Sequence[tuple[str, Cell]]) -> Layout:
        cell_map = CellMap.build([cell for _, cell in cells])
        return cls(
            version=version,
            cell_uris=tuple(uri for uri, _ in cells),
            cell_lines=tuple(split_lines(cell.text) for _, cell in cells),
            cell_map=cell_map,
            lines=split_lines(cell_map.text),
        )

    @property
    def text(self) -> str:
        return self.cell_map.text

    def index_of(self, cell_uri: str) -> int | None:
        try:
            return self.cell_uris.index(cell_uri)
        except ValueError:
            return None

    # -- positions (LSP units both sides) -------------------------------------------------

    def to_cell(self, position: types.Position, encoding: Encoding) -> tuple[int, types.Position]:
        """A position of the joined text -> (cell index, position in that cell); raises
        LookupError on a line that belongs to no cell (masked, or between cells)."""
        line, col = convert.core_position(position, self.lines, encoding)
        found = self.cell_map.locate(line - 1, col)
        if found is None:
            raise LookupError(position)
        index, cell_line, cell_col = found
        cell_lines = self.cell_lines[index]
        return index, convert.lsp_position(cell_line + 1, cell_col, cell_lines, encoding)

    def to_cell_range(self, rng: types.Range, encoding: Encoding) -> tuple[int, types.Range]:
        """A range of the joined text -> (cell, range in it); a range running past its cell
        (a finding spanning the joiner) ends at the end of its first cell."""
        index, start = self.to_cell(rng.start, encoding)
        try:
            end_index, end = self.to_cell(rng.end, encoding)
        except LookupError:
            end_index, end = -1, start
        if end_index != index:
            lines = self.cell_lines[index]
            end = convert.lsp_position(len(lines), 10**9, lines, encoding)
        return index, types.Range(start=start, end=end)

    def from_cell(self, index: int, position: types.Position, encoding: Encoding) -> types.Position:
        """A position in cell ``index`` -> the joined text's; raises LookupError when the cell
        has no place in it (a markdown cell)."""
        line, col = convert.core_position(position, self.cell_lines[index], encoding)
        found = self.cell_map.position(index, line - 1, col)
        if found is None:
            raise LookupError(position)
        joined_line, joined_col = found
        return convert.lsp_position(joined_line + 1, joined_col, self.lines, encoding)

    def from_cell_range(self, index: int, rng: types.Range, encoding: Encoding) -> types.Range:
        return types.Range(
            start=self.from_cell(index, rng.start, encoding),
            end=self.from_cell(index, rng.end, encoding),
        )

    # -- edits ------------------------------------------------------------------------------

    def cell_edits(
        self, edits: Sequence[types.TextEdit], encoding: Encoding
    ) -> dict[int, list[types.TextEdit]] | None:
        """Edits of the joined text as edits of its cells, line by line; None when one
        touches a line that is not its cell's own text (masked IPython, a joiner line): such
        an edit cannot be written back to the notebook."""
        before = self.lines
        after = split_lines(convert.apply_text_edits(self.text, edits, encoding))
        result: dict[int, list[types.TextEdit]] = {}
        matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                continue
            placed = self._line_edit(i1, i2, after[j1:j2], encoding)
            if placed is None:
                return None
            index, edit = placed
            result.setdefault(index, []).append(edit)
        return result

    def _line_edit(
        self, i1: int, i2: int, new: list[str], encoding: Encoding
    ) -> tuple[int, types.TextEdit] | None:
        """Joined lines ``[i1, i2)`` replaced by ``new``, as an edit of one cell."""
        if i1 < i2:
            owners = {self._own_line(i) for i in range(i1, i2)}
            if None in owners or len({o[0] for o in owners if o}) != 1:
                return None
            first, last = self._own_line(i1), self._own_line(i2 - 1)
            assert first is not None and last is not None
            index, a, b = first[0], first[1], last[1] + 1
        else:  # lines inserted before joined line i1: into its cell (fixes add lines above a
            # statement), else after the previous line, at the end of that cell
            previous = self._own_line(i1 - 1) if i1 > 0 else None
            following = self._own_line(i1) if i1 < len(self.lines) else None
            if following is not None:
                index, a = following[0], following[1]
            elif previous is not None:
                index, a = previous[0], previous[1] + 1
            else:
                return None
            b = a
        lines = self.cell_lines[index]
        return index, _replace_lines(lines, a, b, new, encoding)

    def _own_line(self, joined: int) -> tuple[int, int] | None:
        """(cell, line in it) of joined line ``joined`` when it is that cell line's own text."""
        found = self.cell_map.locate(joined, 0)
        if found is None:
            return None
        index, line, _ = found
        lines = self.cell_lines[index]
        if line >= len(lines) or lines[line] != self.lines[joined]:
            return None  # masked: the cell holds something else there
        return index, line


def _replace_lines(
    lines: list[str], a: int, b: int, new: list[str], encoding: Encoding
) -> types.TextEdit:
    """A TextEdit replacing the cell's lines ``[a, b)`` with ``new`` (both may be empty;
    ``b`` is at most the cell's line count)."""

    def end_of(line: int) -> types.Position:
        return types.Position(
            line=line, character=convert.to_lsp_character(lines[line], 10**9, encoding)
        )

    if b < len(lines):  # whole lines, with their terminators (an insertion: a == b)
        start, end = types.Position(line=a, character=0), types.Position(line=b, character=0)
        text = "".join(f"{line}\n" for line in new)
    elif a > 0:  # up to the cell's end: take the break before them instead
        start, end = end_of(a - 1), end_of(b - 1)
        text = "".join(f"\n{line}" for line in new)
    else:  # the whole cell
        start, end = types.Position(line=0, character=0), end_of(b - 1)
        text = "\n".join(new)
    return types.TextEdit(range=types.Range(start=start, end=end), new_text=text)


@dataclass(slots=True)
class OpenNotebook:
    uri: str
    layouts: dict[int, Layout] = field(default_factory=dict)
    current: Layout | None = None

    def add(self, layout: Layout) -> None:
        self.layouts[layout.version] = layout
        self.current = layout
        for version in sorted(self.layouts)[:-KEEP_LAYOUTS]:
            del self.layouts[version]

    def layout(self, version: int | None) -> Layout | None:
        """The layout of ``version`` (a result's), else the present one."""
        found = self.layouts.get(version) if version is not None else None
        return found or self.current


@dataclass(slots=True)
class NotebookStore:
    """Open notebooks by URI, and which one holds each cell."""

    notebooks: dict[str, OpenNotebook] = field(default_factory=dict)

    def get(self, uri: str) -> OpenNotebook | None:
        return self.notebooks.get(uri)

    def of_cell(self, cell_uri: str) -> tuple[OpenNotebook, Layout, int] | None:
        """The notebook holding ``cell_uri``, its present layout and the cell's index."""
        for notebook in self.notebooks.values():
            layout = notebook.current
            if layout is not None and (index := layout.index_of(cell_uri)) is not None:
                return notebook, layout, index
        return None

    def open(self, uri: str) -> OpenNotebook:
        return self.notebooks.setdefault(uri, OpenNotebook(uri))

    def close(self, uri: str) -> OpenNotebook | None:
        return self.notebooks.pop(uri, None)


def split_diagnostics(
    layout: Layout,
    items: Sequence[types.Diagnostic],
    encoding: Encoding,
    syntax: types.DiagnosticSeverity | None = types.DiagnosticSeverity.Error,
) -> Iterator[tuple[str, list[types.Diagnostic]]]:
    """Each cell's diagnostics (every cell, empty lists too: they clear the cell), in cell
    ranges; a diagnostic on no cell's own line (cannot happen for findings of real code) is
    dropped. Their ``data`` stays as it is: code actions come back with it (:mod:`.cell_features`
    maps requests to the joined text before the code actions read it)."""
    per_cell: list[list[types.Diagnostic]] = [[] for _ in layout.cell_uris]
    for item in items:
        try:
            index, rng = layout.to_cell_range(item.range, encoding)
        except LookupError:
            continue
        per_cell[index].append(moved_diagnostic(item, rng))
    if syntax is not None:
        for error in layout.cell_map.cell_syntax_errors:
            per_cell[error.cell].append(syntax_diagnostic(layout, error, syntax, encoding))
    yield from zip(layout.cell_uris, per_cell, strict=True)


def syntax_severity(snap: Analysis | None) -> types.DiagnosticSeverity | None:
    """The severity of ES100 in the cells that do not parse, for the notebook's result ``snap``
    (None: not shown, as a finding of ES100 would not be)."""
    if snap is None or not snap.settings.enable or snap.report.skipped is not None:
        return None
    if not snap.effective.options.enabled("ES100"):
        return None
    return convert.lsp_severity_named(snap.settings.severity.get("ES100", "error"))


def syntax_diagnostic(
    layout: Layout,
    error: CellSyntaxError,
    severity: types.DiagnosticSeverity,
    encoding: Encoding,
) -> types.Diagnostic:
    """ES100 in a cell that does not parse (the module has it blanked: only this cell is not
    checked), at Python's error in the cell."""
    lines = layout.cell_lines[error.cell]
    start = convert.lsp_position(error.line + 1, error.col, lines, encoding)
    end = convert.lsp_position(error.line + 1, error.col + 1, lines, encoding)
    rule = RULES["ES100"]
    return types.Diagnostic(
        range=types.Range(start=start, end=end),
        message=f"syntax error: {error.message} (this cell is not checked)",
        severity=severity,
        code=rule.code,
        code_description=types.CodeDescription(href=rule.url),
        source=convert.SOURCE,
    )


def moved_diagnostic(item: types.Diagnostic, rng: types.Range) -> types.Diagnostic:
    """``item`` at ``rng`` (a cell's place or the joined module's); ``item`` is left as it is."""
    moved = copy.copy(item)
    moved.range = rng
    return moved
