"""``evalsubmit check --add-noqa``: baseline a repository, as ``ruff check --add-noqa`` does.

Each line holding the start of a finding gets ``# noqa: ESxxx`` (merged into a ``# noqa:``
already there: other tools' codes kept, no code twice). The comment goes where the engine reads
it, the finding's first line, so the finding is then silenced; a line that ends inside a string
or after a backslash cannot take a comment and is named instead (never a silent pass). Files
are written as ``--fix`` writes them (:func:`evalsubmit.cli.fixing.write_back`): atomically,
in their encoding, only if still the text that was checked, never one the walk leaves out, and
never into a module that would stop parsing.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from evalsubmit.core.findings import Finding

NOT_ADDED = ("ES190", "ES191")
"""Findings about suppressions themselves: a ``noqa`` for them would only hide a stale one (ruff
leaves RUF100 out likewise)."""


@dataclass(slots=True)
class Added:
    """What ``--add-noqa`` did."""

    directives: int = 0
    """Codes added (one per finding line and code)."""
    files: int = 0
    warnings: list[str] = field(default_factory=list)
    """What could not be added, and why."""


class Checked(Protocol):
    """What this needs of ``check_analysis.FileResult``."""

    path: Path
    findings: list[Finding]
    lines: list[str]
    error: str | None
    internal: tuple[str, ...]


def run(
    results: Mapping[Path, Checked], files: Sequence[Path], left_out: Callable[[Path], str | None]
) -> int:
    """``--add-noqa`` after the check: exit 0 when every finding is silenced now, 1 when some
    could not be, 2 on an internal error (the findings of that file are not all known)."""
    from evalsubmit.cli.common import EXIT_ERROR
    from evalsubmit.cli.output import shown

    failed = [r for r in results.values() if r.error or r.internal]
    for result in failed:
        print(f"evalsubmit: {shown(result.path)}: not analysed whole", file=sys.stderr)
    findings = {p: results[p].findings for p in files if results[p].findings}
    added = add_noqa(findings, {p: results[p].lines for p in files}, left_out)
    report(added)
    return EXIT_ERROR if failed else 1 if added.warnings else 0


def add_noqa(
    findings: Mapping[Path, Sequence[Finding]],
    checked_lines: Mapping[Path, Sequence[str]],
    left_out: Callable[[Path], str | None],
) -> Added:
    """Add the comments to each file of ``findings`` (``checked_lines``: its lines as checked)."""
    from evalsubmit.cli.fixing import write_back
    from evalsubmit.core.lines import split_lines
    from evalsubmit.core.sourcefile import UnreadableSource, read_source
    from evalsubmit.workspace.walk import is_notebook

    added = Added()
    for path, found in findings.items():
        if is_notebook(path):
            _add_to_notebook(path, found, added, left_out)
            continue
        by_line: dict[int, list[str]] = {}
        for f in found:
            if f.code not in NOT_ADDED:
                by_line.setdefault(f.span.line, []).append(f.code)
        if not by_line:
            continue
        try:
            source = read_source(path)
        except UnreadableSource as error:
            added.warnings.append(f"{path}: no noqa added: {error.reason}")
            continue
        if split_lines(source.text) != list(checked_lines.get(path, ())):
            added.warnings.append(f"{path}: no noqa added: it changed since it was checked")
            continue
        new, count = _commented(source.text, by_line, str(path), added)
        if not count:
            continue
        if _parses(source.text) and not _parses(new):
            added.warnings.append(f"{path}: no noqa added: the module would no longer parse")
            continue
        why = write_back(path, source.text, new, source.encoding, left_out=left_out)
        if why is not None:
            added.warnings.append(f"{path}: no noqa added: {why}")
            continue
        added.directives += count
        added.files += 1
    return added


def _add_to_notebook(
    path: Path, found: Sequence[Finding], added: Added, left_out: Callable[[Path], str | None]
) -> None:
    """The comments in the cells' sources (a finding's line is a line of its cell), the file
    written back with every other byte as it was."""
    from evalsubmit.cli.fixing import write_back
    from evalsubmit.core.sourcefile import UnreadableSource
    from evalsubmit.workspace.notebook import read_notebook

    by_cell: dict[int, dict[int, list[str]]] = {}
    for f in found:
        if f.code not in NOT_ADDED and f.cell is not None:
            by_cell.setdefault(f.cell, {}).setdefault(f.span.line, []).append(f.code)
    if not by_cell:
        return
    try:
        notebook = read_notebook(path)
    except UnreadableSource as error:
        added.warnings.append(f"{path}: no noqa added: {error.reason}")
        return
    sources: dict[int, str] = {}
    count = 0
    for cell, by_line in sorted(by_cell.items()):
        text = notebook.cells[cell].text if cell < len(notebook.cells) else ""
        sources[cell], added_here = _commented(text, by_line, f"{path}:cell {cell + 1}", added)
        count += added_here
    if not count:
        return
    original = notebook.original
    encoding = "utf-8-sig" if original.startswith("\ufeff") else "utf-8"
    new = notebook.with_sources(sources).removeprefix("\ufeff")
    why = write_back(path, original.removeprefix("\ufeff"), new, encoding, left_out=left_out)
    if why is not None:
        added.warnings.append(f"{path}: no noqa added: {why}")
        return
    added.directives += count
    added.files += 1


def _commented(
    text: str, by_line: Mapping[int, list[str]], where: str, added: Added
) -> tuple[str, int]:
    """``text`` (a file's, or a notebook cell's) with the codes of ``by_line`` commented on
    their lines, and how many were added; a line that cannot take a comment is warned about."""
    from evalsubmit.core.lines import split_lines_keepends
    from evalsubmit.core.suppression import lines_ending_in_strings

    lines = split_lines_keepends(text)
    unsafe = lines_ending_in_strings(text)
    count = 0
    for number, codes in sorted(by_line.items()):
        if number in unsafe or not 0 < number <= len(lines):
            added.warnings.append(
                f"{where}:{number}: no noqa added for {', '.join(sorted(set(codes)))}: the line "
                "ends inside a string or continues after a backslash"
            )
            continue
        count += _add(lines, number, codes)
    return "".join(lines), count


def _add(lines: list[str], number: int, codes: Iterable[str]) -> int:
    from evalsubmit.core.suppression import suppressed, with_noqa

    line = lines[number - 1]
    new_codes = [c for c in dict.fromkeys(codes) if not suppressed(c, line)]
    new = with_noqa(line, new_codes)
    if new is None:
        return 0
    lines[number - 1] = new
    return len(new_codes)


def report(added: Added) -> None:
    """ruff's words: ``Added 3 noqa directives.``, on stderr (stdout stays empty)."""
    for warning in added.warnings:
        print(f"evalsubmit: warning: {warning}", file=sys.stderr)
    noun = "directive" if added.directives == 1 else "directives"
    print(f"Added {added.directives} noqa {noun}.", file=sys.stderr)


def _parses(text: str) -> bool:
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True
