"""``check``'s last word on suppression comments, once every checked file's findings are in.

Each file is analysed forward, alone; findings that other checked files place in it are routed
to it afterwards (``check._route_remote_findings``). Only then can a suppression that may
silence such a finding (ES107, or a bare ``# evalsubmit: ignore``) be called unused, and only
if every module that may place one here was analysed in this run: a module of the project left
out of the check (not named, excluded) may hold the submit that makes it. Also counts what
``# evalsubmit: ignore-file`` hid, for the summary (a file it silences is never a silent pass).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from evalsubmit.analysis import AnalysisOptions, Finding

FileIgnores = tuple[int, int, int]
"""(findings that ``ignore-file`` comments silenced, files they silenced some in, files in
which they turn every rule off)."""


class Result(Protocol):
    """What this needs of ``check_analysis.FileResult``."""

    path: Path
    findings: list[Finding]
    suppressed: list[Finding]
    lines: list[str]
    error: str | None
    internal: tuple[str, ...]
    skipped: str | None
    unread: bool


def judge(
    results: Mapping[Path, Result], options: Mapping[Path, AnalysisOptions], python: Path
) -> None:
    """Make each file's ES190/ES191 findings anew, with every routed finding known. (A file
    ``check`` did not analyse is read only if it may hold one of ours, and the analysis is
    loaded only for a file that does: a check of files that cannot reach the SDK loads none.)"""
    from evalsubmit.cli.projects import lines_of

    analysed: set[Path] | None = None
    for path, result in results.items():
        if result.error or result.skipped:
            continue
        if result.unread and not result.lines:
            if not _may_hold(path):
                continue
            result.lines = lines_of(path)
        elif result.unread and not _holds_ours(result.lines):
            continue
        from evalsubmit.analysis.engine.suppressing import judged

        partial = bool(result.internal)
        args = (result.suppressed, result.lines, options[path])
        sure = judged(result.findings, *args, complete=False, partial=partial)
        late = judged(result.findings, *args, complete=True, partial=partial)
        if late == sure:
            result.findings = sure
            continue
        if analysed is None:  # every checked file's real path: only when a verdict hangs on it
            analysed = {_resolved(p) for p, r in results.items() if _whole(r)}
        result.findings = late if _importers_analysed(path, python, analysed) else sure


def and_those_holding_ours(reach: Iterable[Path], files: Sequence[Path]) -> Iterator[Path]:
    """``reach`` (the files that can reach the SDK, as found), then the others that may hold a
    suppression comment of ours: ``--fix`` analyses them too, so that ES190/ES191 are fixed in
    a file that cannot reach the SDK as in any other."""
    seen = set()
    for path in reach:
        seen.add(path)
        yield path
    yield from (path for path in files if path not in seen and _may_hold(path))


def file_ignores(results: Mapping[Path, Result]) -> FileIgnores:
    """What ``# evalsubmit: ignore-file`` comments hid in this run."""
    hidden, files, all_off = 0, 0, 0
    for result in results.values():
        if result.error or result.skipped or not result.lines:
            continue
        if not any("ignore-file" in line.lower() for line in result.lines):
            continue
        # loaded for the first file holding the word, not with every check
        from evalsubmit.core.lines import line_text
        from evalsubmit.core.suppression import file_suppressions, silenced_by_file, suppressed

        file_level = file_suppressions(result.lines)
        if not file_level:
            continue
        all_off += any(s.codes is None for _, s in file_level)
        count = sum(
            1
            for f in result.suppressed
            if silenced_by_file(f.code, file_level)
            and not suppressed(f.code, line_text(result.lines, f.span.line))
        )
        hidden += count
        files += bool(count)
    return hidden, files, all_off


def sentence(ignores: FileIgnores) -> str | None:
    """``# evalsubmit: ignore-file`` silenced 3 findings in 2 files (every rule off in 1)."""
    hidden, files, all_off = ignores
    if not (hidden or all_off):
        return None
    from evalsubmit.cli.output import plural

    text = f"`# evalsubmit: ignore-file` silenced {plural(hidden, 'finding')}"
    if files:
        text += f" in {plural(files, 'file')}"
    if all_off:
        text += f" (every rule off in {plural(all_off, 'file')})"
    return text + "."


def _whole(result: Result) -> bool:
    return not (result.error or result.skipped or result.internal)


def _resolved(path: Path) -> Path:
    from evalsubmit.cli.projects import resolved_file

    return resolved_file(path)


def _holds_ours(lines: list[str]) -> bool:
    return _may_hold_bytes("\n".join(lines).encode("utf-8", "surrogatepass"))


def _may_hold(path: Path) -> bool:
    """A file ``check`` did not read (it cannot reach the SDK) may still hold suppressions."""
    try:
        with path.open("rb") as file:
            data = file.read(4 * 2_000_000)
    except OSError:
        return False
    return _may_hold_bytes(data)


def _may_hold_bytes(data: bytes) -> bool:
    data = data.lower()
    return b"evalsubmit" in data or re.search(rb"noqa:[^\n]*\bes", data) is not None


def _importers_analysed(path: Path, python: Path, analysed: set[Path]) -> bool:
    """Whether every module of the project that may place a finding in ``path`` (as the editor
    finds them) was analysed whole in this run."""
    from evalsubmit.analysis.engine.crossfile import importers
    from evalsubmit.cli.projects import project_of
    from evalsubmit.workspace.project import MAX_PROJECT_FILES

    project = project_of(path, python)
    if len(project.python_files()) >= MAX_PROJECT_FILES:
        return False  # the listing may be cut short: an importer may be missing from it
    return all(importer in analysed for importer in importers(project, _resolved(path)))
