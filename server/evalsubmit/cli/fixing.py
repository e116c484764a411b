"""``check --fix`` / ``--diff`` on files: fixing one file (in the worker that analysed it, with
the engine the editor's fix-all uses) and, back in the main process, writing the results or
showing them as a diff.

A file is written only when it can be written back exactly as it was read except for the
fixes: same encoding (a PEP 263 cookie's, UTF-8 with or without its BOM), same line endings
(CRLF and CR are kept as they are: fixes never add a line break), same permissions, and only
if its bytes on disk are still the ones analysed (so a file edited meanwhile, or one holding
bytes its encoding cannot decode, is never overwritten). Writes are atomic: a temporary file in
the same folder, flushed, then renamed over the original (through a symlink, the target).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.cli.check_flags import FixRequest
from evalsubmit.cli.common import resolved
from evalsubmit.core.findings import Finding
from evalsubmit.core.lines import split_lines_keepends
from evalsubmit.core.sourcefile import UnreadableSource, read_regular_file

if TYPE_CHECKING:
    from evalsubmit.analysis.report import ModuleReport

MAX_WRITE_CHECK_BYTES = 64_000_000


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


def apply_fixes(fixes: Sequence[FileFix], request: FixRequest, *, write: bool = True) -> FixTotals:
    """Write the fixed files (``write``) or collect their diff (``--diff``)."""
    totals = FixTotals()
    for fix in fixes:
        totals.warnings += fix_warnings(fix)
        if not fix.changed:
            continue
        if request.diff:
            totals.diff += unified_diff(fix.path, fix.original, fix.fixed)
        elif write:
            error = write_back(fix.path, fix.original, fix.fixed, fix.encoding)
            if error is not None:
                totals.warnings.append(f"{fix.path}: not fixed: {error}")
                totals.unwritten.add(fix.path)
                continue
        totals.fixed += fix.count
        totals.files += 1
    return totals


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


def write_back(path: Path, original: str, fixed: str, encoding: str) -> str | None:
    """Replace ``path``'s content by ``fixed`` in ``encoding``, atomically; None, or why not."""
    target = resolved(path)  # through a symlink: replace the file it points to, not the link
    try:
        expected = original.encode(encoding)
        data = fixed.encode(encoding)
    except UnicodeError as error:
        return f"the text cannot be encoded back as {encoding} ({error})"
    try:
        current = read_regular_file(target, max_bytes=MAX_WRITE_CHECK_BYTES)
    except UnreadableSource as error:
        return error.reason
    if current != expected:
        return (
            "its bytes on disk are not the ones checked (changed meanwhile, or bytes that are "
            f"not valid {encoding}): not overwritten"
        )
    import tempfile

    try:
        mode = stat.S_IMODE(os.stat(target).st_mode)
        handle, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".evalsubmit"
        )
    except OSError as error:
        return f"cannot write next to it ({error.strerror or error})"
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, target)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return f"cannot write it ({error.strerror or error})"
    return None
