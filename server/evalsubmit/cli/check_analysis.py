"""Each file's result for ``evalsubmit check`` (:class:`FileResult`): from the result cache
while it still holds (:mod:`.result_cache`), else analysed, here for the first files and by
worker processes (:mod:`.workers`, with this one) from :data:`PARALLEL_THRESHOLD` files on; with
``--fix``, fixed where it is analysed."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.cli import collector
from evalsubmit.cli.check_flags import FixRequest, chosen_cache_folder
from evalsubmit.cli.projects import project_of
from evalsubmit.core.records import Record, replace

if TYPE_CHECKING:
    from evalsubmit.analysis import AnalysisOptions, Finding, ModuleReport
    from evalsubmit.cli.fixing import FileFix
    from evalsubmit.cli.stdin import StdinSource
    from evalsubmit.workspace.observed import Grounds

# The analysis is imported by the functions that run it, not with this module: building the
# parser (`evalsubmit --help`) loads no analysis at all.

PARALLEL_THRESHOLD = 8
"""Files to analyse (those that can reach the SDK) from which the work is shared by processes:
each costs tens of milliseconds, a forked worker a few."""


class FileResult(Record, hash=False):
    """What ``check`` reports for one file."""

    __slots__ = (
        "cell_lines",
        "error",
        "findings",
        "fix",
        "internal",
        "lines",
        "observed",
        "path",
        "remote",
        "skipped",
        "suppressed",
        "unread",
    )
    path: Path
    findings: list[Finding]
    error: str | None
    """An internal error (exit 2)."""
    internal: tuple[str, ...]
    """Statements an engine bug made the analysis skip (exit 2; the rest is reported)."""
    remote: tuple[tuple[Path, Finding], ...]
    lines: list[str]
    suppressed: list[Finding]
    """The findings suppression comments silenced (ES190 tells used ones from unused ones)."""
    skipped: str | None
    """Why the file was not checked (a warning; a failure with --strict)."""
    fix: FileFix | None
    """With --fix/--diff: the fixed text (``findings`` and ``lines`` are then the fixed text's)."""
    unread: bool
    """Not analysed: it cannot reach the SDK (:mod:`evalsubmit.workspace.relevance`)."""
    observed: Grounds | None
    """What the analysis stood on, for the result cache (None: not to be kept)."""
    cell_lines: dict[int, list[str]] | None
    """A notebook's code cells' lines by cell index (its findings are cell-relative)."""

    def __init__(
        self,
        path: Path,
        findings: list[Finding],
        error: str | None = None,
        internal: tuple[str, ...] = (),
        remote: tuple[tuple[Path, Finding], ...] = (),
        lines: list[str] | None = None,
        suppressed: list[Finding] | None = None,
        skipped: str | None = None,
        fix: FileFix | None = None,
        unread: bool = False,
        observed: Grounds | None = None,
        cell_lines: dict[int, list[str]] | None = None,
    ) -> None:
        self.path = path
        self.findings = findings
        self.error = error
        self.internal = internal
        self.remote = remote
        self.lines = [] if lines is None else lines
        self.suppressed = [] if suppressed is None else suppressed
        self.skipped = skipped
        self.fix = fix
        self.unread = unread
        self.observed = observed
        self.cell_lines = cell_lines


def _cached_or_analysed(
    files: Iterable[Path],
    options: dict[Path, AnalysisOptions],
    args: argparse.Namespace,
    python: Path,
    fix: FixRequest | None,
    stdin: StdinSource | None,
) -> Iterable[FileResult]:
    """Each file's result, in no particular order: from the result cache while it still holds
    (:mod:`.result_cache`), else analysed (and kept). Fixes and stdin bypass the cache."""
    from evalsubmit.workspace.walk import is_notebook

    cache = None
    if fix is None and stdin is None and not args.no_cache:
        from evalsubmit.cli.result_cache import ResultCache

        cache = ResultCache(chosen_cache_folder(args), python)
    if cache is None:
        yield from _analyse_all(files, options, args.jobs, python, fix, stdin)
        return
    from evalsubmit.core.lines import split_lines

    found: dict[Path, FileResult] = {}

    def missed() -> Iterator[Path]:
        for path in files:
            hit = cache.lookup(path, options[path])
            if hit is None:
                yield path
                continue
            lines = split_lines(hit.text)
            found[path] = FileResult(
                path,
                hit.findings,
                remote=hit.remote,
                lines=lines,
                skipped=hit.skipped,
                suppressed=hit.suppressed,
            )
            if is_notebook(path):  # its findings are framed in their cells' lines
                from evalsubmit.cli.notebooks import cell_lines_of

                found[path].cell_lines = cell_lines_of(hit.text)

    for result in _analyse_all(missed(), options, args.jobs, python, observe=True):
        found[result.path] = result
        if result.observed is not None and not (result.error or result.internal):
            kept = result.findings, result.remote, result.skipped, result.suppressed
            cache.store(result.path, options[result.path], result.observed, *kept)
    cache.close()
    yield from found.values()


def _analyse_all(
    files: Iterable[Path],
    options: dict[Path, AnalysisOptions],
    jobs: int,
    python: Path,
    fix: FixRequest | None = None,
    stdin: StdinSource | None = None,
    *,
    observe: bool = False,
) -> Iterable[FileResult]:
    """The results of ``files`` (in no particular order): the first here, the others by
    ``jobs`` processes (this one and forked workers) from the :data:`PARALLEL_THRESHOLD`-th
    file on, the workers started (after the first's analysis) while ``files`` is still being
    read; with ``observe``, with what each stood on (for the result cache)."""
    processes = jobs or os.cpu_count() or 1
    if stdin is not None:
        _analysis_starts()
        collector.resume()
        yield _analyse_one(stdin.path, options[stdin.path], python, fix, stdin)
        return
    stream = iter(files)
    first = next(stream, None)
    if first is None:
        return
    # The first file is analysed here, before any worker exists: what it warms (the engine's
    # lazily loaded parts, the project's index of which files may reach a module) is then
    # inherited by the forked workers instead of being built again in each. It runs with the
    # collector still paused: what it builds lives until the end, and a pass right after it
    # would traverse all of it (the index of every file) to free the little it left behind.
    _analysis_starts()
    result = _analyse_one(first, options[first], python, fix, observe=observe)
    collector.resume()
    yield result
    waiting: list[Path] = []
    for path in stream:
        waiting.append(path)
        if processes > 1 and len(waiting) + 1 >= PARALLEL_THRESHOLD:
            import gc
            from functools import partial

            from evalsubmit.cli.workers import in_workers

            gc.freeze()  # what is loaded now is shared, not copied by the workers' collector
            task = partial(_analyse_batch, python=python, fix=fix, observe=observe)
            each = [(path, options[path]) for path in waiting]
            rest = ((path, options[path]) for path in stream)
            yield from in_workers(each, rest, processes, task)
            return
    for path in waiting:
        yield _analyse_one(path, options[path], python, fix, observe=observe)


def _analysis_starts() -> None:
    # Loaded while the collector is paused (and inherited by forked workers, not imported
    # again in each); frozen when it resumes, shared by the workers rather than copied by
    # their collector.
    import evalsubmit.analysis.engine.analyze  # noqa: F401


def _analyse_batch(
    batch: list[tuple[Path, AnalysisOptions]],
    python: Path,
    fix: FixRequest | None,
    observe: bool,
) -> list[FileResult]:
    """A worker's task: a few files (one round trip for all)."""
    return [
        _analyse_one(path, path_options, python, fix, observe=observe)
        for path, path_options in batch
    ]


def _analyse_one(
    path: Path,
    options: AnalysisOptions,
    python: Path,
    fix: FixRequest | None = None,
    stdin: StdinSource | None = None,
    observe: bool = False,
) -> FileResult:
    from evalsubmit.analysis import analyze_source
    from evalsubmit.core.lines import split_lines
    from evalsubmit.core.sourcefile import UnreadableSource, read_source
    from evalsubmit.workspace.walk import is_notebook

    if is_notebook(path):
        from evalsubmit.cli.notebooks import analyse_notebook

        text = None if stdin is None else stdin.text
        project = project_of(path, python)
        cells = analyse_notebook(path, options, project, fix, text, observe and fix is None)
        return FileResult(
            path,
            cells.findings,
            cells.error,
            cells.internal,
            skipped=cells.skipped,
            fix=cells.fix,
            cell_lines=cells.cell_lines,
            observed=cells.observed,
        )
    try:
        # bytes: up to 4 per character in UTF-8; the engine then applies its character limit
        source = stdin or read_source(path, max_bytes=4 * options.max_chars)
    except UnreadableSource as error:
        return FileResult(path, [], skipped=error.reason)
    text = source.text
    project = project_of(path, python)

    checked = replace(options, summaries=False)  # findings are all it prints

    def analyze(text: str) -> ModuleReport:
        return analyze_source(text, path=path, project=project, options=checked, reverse=False)

    try:
        facts = None
        if observe and fix is None and stdin is None:
            from evalsubmit.workspace.observed import grounds, observing

            with observing() as journal:  # what the result stands on, for the cache
                report = analyze(text)
            facts = grounds(text, journal)
        else:  # nothing is kept: nothing to note
            report = analyze(text)
        fixed = None
        if fix is not None and report.skipped is None:
            from evalsubmit.cli.fixing import fix_file

            fixed, report = fix_file(path, text, source.encoding, report, analyze, fix)
            text = fixed.fixed
    except Exception as error:  # one bad file must not stop the run
        return FileResult(path, [], f"internal error: {type(error).__name__}: {error}")
    return FileResult(
        path,
        list(report.findings),
        remote=report.remote_findings,
        lines=split_lines(text),
        suppressed=list(report.suppressed),
        skipped=report.skipped,
        fix=fixed,
        internal=report.internal_errors,
        observed=facts,
    )
