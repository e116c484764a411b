"""A notebook's cells as one Python module, and positions between the module and each cell.

The module is the code cells' texts joined in document order (the kernel's execution order is
unknown; document order is what the user reads), one line break between cells. IPython syntax
is masked to neutral Python of the same length in code points, so every column of a kept line
is the cell's own:

* a line magic or shell escape (``%pip install x``, ``!ls``) becomes ``0`` (an expression
  statement, valid also as the only statement of a block) padded with spaces;
* ``files = !ls`` and ``env = %env`` keep their target (``files = 0``), so the name exists;
* help (``obj?``, ``??obj``) becomes ``0`` too;
* a cell magic's line (``%%time``) is masked; its body is kept when the magic runs Python
  (``%%time``, ``%%timeit``, ``%%capture``, ``%%prun``), else the whole cell is not Python
  (``%%bash``, ``%%writefile``, ``%%html``) and is masked.

A cell that still does not parse is replaced by empty lines (so it costs only that cell) and
its error is kept in :attr:`CellMap.cell_syntax_errors`, at its place in the cell.

Positions: ``line`` 0-based, ``col`` in code points (core/findings.py's columns), both sides.
Standard library only.
"""

from __future__ import annotations

import ast
import functools
import re
import warnings
from collections.abc import Sequence
from dataclasses import field

from evalsubmit.core.lines import split_lines
from evalsubmit.core.records import record

PYTHON_CELL_MAGICS = frozenset({"time", "timeit", "capture", "prun"})
"""Cell magics whose body is Python run by the kernel."""

_MAGIC_OR_SHELL = re.compile(r"^(\s*)[%!]")
_ASSIGNED = re.compile(r"^(\s*[A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*\s*=\s*)[%!]")
_HELP = re.compile(r"^(\s*)(\?{1,2}[\w.]+|[\w.]+\?{1,2})\s*$")
_CELL_MAGIC = re.compile(r"^\s*%%(\w+)")


@record(slots=False)
class Cell:
    kind: str
    """``"code"``, ``"markdown"`` or ``"raw"``: only code cells are part of the module."""
    text: str


@record(slots=False)
class CellSyntaxError:
    """Why a code cell does not parse, at its place in the cell (0-based line, code points)."""

    cell: int
    line: int
    col: int
    message: str


@record(slots=False)
class CellMap:
    text: str
    """The module analysed for the notebook."""
    cell_syntax_errors: list[CellSyntaxError] = field(default_factory=list)
    _rows: tuple[tuple[int, int, bool], ...] = ()
    """Per line of :attr:`text`: (cell index, line in the cell, the line is the cell's own)."""
    _starts: dict[int, int] = field(default_factory=dict)
    """The first line of each code cell in :attr:`text`."""

    @classmethod
    def build(cls, cells: Sequence[Cell]) -> CellMap:
        lines: list[str] = []
        rows: list[tuple[int, int, bool]] = []
        starts: dict[int, int] = {}
        errors: list[CellSyntaxError] = []
        for index, cell in enumerate(cells):
            if cell.kind != "code":
                continue
            own = split_lines(cell.text)
            masked, error = _module_lines(cell.text)
            if error is not None:
                errors.append(CellSyntaxError(index, *error))
            starts[index] = len(lines)
            for number, (line, kept) in enumerate(zip(own, masked, strict=True)):
                lines.append(kept)
                rows.append((index, number, line == kept))
        return cls("\n".join(lines), errors, tuple(rows), starts)

    def locate(self, line: int, col: int) -> tuple[int, int, int] | None:
        """A position of :attr:`text` -> (cell index, line in the cell, col); None on a line
        that is not the cell's own text (masked IPython, a cell that does not parse)."""
        if not 0 <= line < len(self._rows):
            return None
        cell, number, own = self._rows[line]
        return (cell, number, col) if own else None

    def position(self, cell: int, line: int, col: int) -> tuple[int, int] | None:
        """A position in code cell ``cell`` -> the position of :attr:`text`; None for a cell
        that is not part of it (markdown, raw) or a line past the cell's end."""
        start = self._starts.get(cell)
        if start is None or line < 0:
            return None
        joined = start + line
        if joined >= len(self._rows) or self._rows[joined][0] != cell:
            return None
        return joined, col


@functools.lru_cache(maxsize=4096)
def _module_lines(text: str) -> tuple[tuple[str, ...], tuple[int, int, str] | None]:
    """A code cell's lines in the module, and its syntax error (then the lines are empty).
    Cached by text: an editor rebuilds the map at each keystroke, in one cell of many."""
    masked = _masked(split_lines(text))
    error = _syntax_error(masked)
    if error is not None:
        return tuple("" for _ in masked), error
    return tuple(masked), None


def _masked(lines: list[str]) -> list[str]:
    first = next((line for line in lines if line.strip()), "")
    magic = _CELL_MAGIC.match(first)
    if magic is not None and magic.group(1) not in PYTHON_CELL_MAGICS:
        return [_neutral(line, "") for line in lines]  # not Python at all
    masked: list[str] = []
    for line in lines:
        if (assigned := _ASSIGNED.match(line)) is not None:
            masked.append(_neutral(line, assigned.group(1)))
        elif (found := _MAGIC_OR_SHELL.match(line)) is not None or (
            found := _HELP.match(line)
        ) is not None:
            masked.append(_neutral(line, found.group(1)))
        else:
            masked.append(line)
    return masked


def _neutral(line: str, keep: str) -> str:
    """``line`` as ``keep`` then ``0`` padded to its length (or blank when too short)."""
    if len(line) <= len(keep):
        return " " * len(line)
    return (keep + "0").ljust(len(line))


def _syntax_error(lines: list[str]) -> tuple[int, int, str] | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # top-level await runs in IPython (autoawait)
            compile(
                "\n".join(lines),
                "<cell>",
                "exec",
                ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT,
            )
    except SyntaxError as error:
        line = max(0, min((error.lineno or 1) - 1, len(lines) - 1))
        col = max(0, (error.offset or 1) - 1)
        return line, min(col, len(lines[line])), error.msg or "invalid syntax"
    except (ValueError, RecursionError, MemoryError) as error:
        return 0, 0, str(error) or type(error).__name__
    return None
