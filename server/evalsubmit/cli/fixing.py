"""``check --fix`` / ``--diff`` on files: fixing one file (in the worker that analysed it, with
the engine the editor's fix-all uses) and, back in the main process, writing the results or
showing them as a diff.

A file is written only when it can be written back exactly as it was read except for the
fixes: same encoding (a PEP 263 cookie's, UTF-8 with or without its BOM), same line endings
(CRLF and CR are kept as they are: fixes never add a line break), same permissions, and only
if its bytes on disk are still the ones analysed (so a file edited meanwhile, or one holding
bytes its encoding cannot decode, is never overwritten). Writes are atomic: a temporary file in
the same folder, written and synced, then renamed over the original (through a symlink, the
target) only if the original is still the very version read (:mod:`evalsubmit.cli.safe_replace`).

A file the configuration's ``exclude`` or a ``.gitignore`` leaves out is never written, however
it was reached: the file about to be replaced (a link's target) is judged again right before
(``left_out``), whatever the walk decided about the name that led to it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.cli.check_flags import FixRequest
from evalsubmit.cli.common import resolved
from evalsubmit.cli.formats import FixedInFile
from evalsubmit.cli.safe_replace import (
    EDITED_MEANWHILE,
    ChangedWhileRead,
    read_snapshot,
    replace_if_unchanged,
)
from evalsubmit.core.findings import Finding
from evalsubmit.core.lines import split_lines, split_lines_keepends
from evalsubmit.core.sourcefile import UnreadableSource

if TYPE_CHECKING:
    from evalsubmit.analysis.report import ModuleReport
    from evalsubmit.cli.check_analysis import FileResult

MAX_WRITE_CHECK_BYTES = 64_000_000
LeftOut = Callable[[Path], str | None]
"""Why the walk leaves a real path out ("by a .gitignore"...), or None."""


@dataclass(slots=True)
class FileFix:
    """What ``--fix`` did to one file's text (nothing written yet)."""

    path: Path
    original: str
    fixed: str
    encoding: str
    count: int
    """Findings fixed."""
    original_findings: list[Finding] = field(default_factory=list)
    """The findings before fixing: reported instead when the file cannot be written."""
    failure: str | None = None
    """Why the fixes were given up (the text is unchanged)."""
    rejected: int = 0
    """Fixes left out because the module would no longer parse with them."""
    converged: bool = True
    applied: tuple[tuple[str, str], ...] = ()
    """The code and name of each finding fixed (``--show-fixes``)."""
    cells: tuple[tuple[int, str, str], ...] = ()
    """A notebook's fixed cells: (index, source before, source after); ``--diff`` shows these
    (``nb.ipynb:cell 7``, as ruff does), not the notebook's JSON."""

    @property
    def changed(self) -> bool:
        return self.fixed != self.original


def fix_file(
    path: Path,
    text: str,
    encoding: str,
    report: ModuleReport,
    analyze: Callable[[str], ModuleReport],
    request: FixRequest,
) -> tuple[FileFix, ModuleReport]:
    """Fix ``text`` (analysed as ``report``); the fix and the report of the fixed text."""
    from evalsubmit.analysis.engine.fixes import fix_source  # the editor's fix-all engine

    outcome = fix_source(text, report, analyze, unsafe=request.unsafe)
    fix = FileFix(
        path,
        text,
        outcome.text,
        encoding,
        outcome.fixed,
        list(report.findings),
        outcome.failure,
        len(outcome.rejected),
        outcome.converged,
        outcome.applied,
    )
    return fix, outcome.report


@dataclass(slots=True)
class FixTotals:
    fixed: int = 0
    files: int = 0
    diff: str = ""
    warnings: list[str] = field(default_factory=list)
    """Fixes not applied, and why (stderr)."""
    unwritten: set[Path] = field(default_factory=set)
    """Files whose fixes could not be written: they keep their original findings."""
    by_file: list[FixedInFile] = field(default_factory=list)
    """What was fixed in each file, per rule (``--show-fixes``)."""


def apply_fixes(
    fixes: Sequence[FileFix],
    request: FixRequest,
    *,
    write: bool = True,
    left_out: LeftOut | None = None,
) -> FixTotals:
    """Write the fixed files (``write``; never one ``left_out`` names) or collect their diff
    (``--diff``)."""
    totals = FixTotals()
    for fix in fixes:
        totals.warnings += fix_warnings(fix)
        if not fix.changed:
            continue
        if request.diff and fix.cells:
            for index, old, new in fix.cells:
                totals.diff += unified_diff(Path(f"{fix.path}:cell {index + 1}"), old, new)
        elif request.diff:
            totals.diff += unified_diff(fix.path, fix.original, fix.fixed)
        elif write:
            error = write_back(fix.path, fix.original, fix.fixed, fix.encoding, left_out=left_out)
            if error is not None:
                totals.warnings.append(f"{fix.path}: not fixed: {error}")
                totals.unwritten.add(fix.path)
                continue
        totals.fixed += fix.count
        totals.files += 1
        totals.by_file.append((fix.path, per_rule(fix.applied)))
    return totals


def fix_results(
    results: Mapping[Path, FileResult], request: FixRequest, write: bool, left_out: LeftOut
) -> FixTotals:
    """:func:`apply_fixes` to ``check``'s results: a file that could not be written keeps its
    findings and lines."""
    fixes = [result.fix for result in results.values() if result.fix is not None]
    totals = apply_fixes(fixes, request, write=write, left_out=left_out)
    for path in totals.unwritten:
        unwritten = results[path]
        if unwritten.fix is not None:
            unwritten.findings = unwritten.fix.original_findings
            unwritten.lines = split_lines(unwritten.fix.original)
    return totals


def per_rule(applied: Sequence[tuple[str, str]]) -> list[tuple[str, str, int]]:
    """Each rule's code, name and how many of its findings were fixed."""
    from collections import Counter

    return [(code, name, count) for (code, name), count in Counter(applied).items()]


def fix_warnings(fix: FileFix) -> list[str]:
    warnings = []
    if fix.failure:
        warnings.append(f"{fix.path}: not fixed, left as it was: {fix.failure}")
    if fix.rejected:
        warnings.append(
            f"{fix.path}: {fix.rejected} fix(es) not applied: the module would no longer parse"
        )
    if not fix.converged:
        warnings.append(f"{fix.path}: fixes did not settle in their round limit; check the result")
    return warnings


def unified_diff(path: Path, old: str, new: str) -> str:
    """A ``diff -u`` of the fix (line ends kept as they are; a last line without its newline
    is marked like git does)."""
    import difflib  # with --diff only: a check imports neither difflib nor tempfile

    from evalsubmit.cli.output import shown

    # the headers reach the terminal: a hostile name's ESC sequence is shown, not obeyed
    name = shown(path.as_posix())
    lines = difflib.unified_diff(
        split_lines_keepends(old), split_lines_keepends(new), fromfile=name, tofile=name
    )
    marker = "\n\\ No newline at end of file\n"
    return "".join(line if line.endswith(("\n", "\r")) else line + marker for line in lines)


def write_back(
    path: Path,
    original: str,
    fixed: str,
    encoding: str,
    *,
    left_out: LeftOut | None = None,
    before_final_check: Callable[[Path], None] | None = None,
) -> str | None:
    """Replace ``path``'s content by ``fixed`` in ``encoding``, atomically; None, or why not.
    ``before_final_check`` is a test's seam: it runs right before the file's last check."""
    target = resolved(path)  # through a symlink: replace the file it points to, not the link
    why_out = left_out(target) if left_out is not None else None
    if why_out is not None:
        shown = f"{target} is excluded" if target != path.absolute() else "it is excluded"
        return f"{shown} ({why_out}): never written"
    try:
        expected = original.encode(encoding)
        data = fixed.encode(encoding)
    except UnicodeError as error:
        return f"the text cannot be encoded back as {encoding} ({error})"
    try:
        read = read_snapshot(target, max_bytes=MAX_WRITE_CHECK_BYTES)
    except ChangedWhileRead:
        return EDITED_MEANWHILE
    except UnreadableSource as error:
        return error.reason
    if read.data != expected:
        return (
            "its bytes on disk are not the ones checked (changed meanwhile, or bytes that are "
            f"not valid {encoding}): not overwritten"
        )
    return replace_if_unchanged(
        target,
        data,
        read,
        max_bytes=MAX_WRITE_CHECK_BYTES,
        before_final_check=before_final_check,
    )
