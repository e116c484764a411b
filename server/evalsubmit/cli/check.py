"""``evalsubmit check PATHS``: report submit() mistakes in files or folders, for CI."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.cli import add_noqa, collector, suppressions
from evalsubmit.cli.check_flags import (
    CheckFlags,
    FixRequest,
    add_cache_options,
    add_options,
    add_run_options,
    check_flags,
    chosen_cache_folder,
)
from evalsubmit.cli.common import EXIT_ERROR, interpreter, python_option
from evalsubmit.cli.configured import add_config_options
from evalsubmit.cli.projects import project_of, relevant, route_remote_findings, start_run

if TYPE_CHECKING:
    from evalsubmit.analysis import AnalysisOptions, Finding, ModuleReport
    from evalsubmit.cli.fixing import FileFix
    from evalsubmit.cli.output import Skipped
    from evalsubmit.cli.stdin import StdinSource
    from evalsubmit.workspace.observed import Grounds

# The analysis is imported by the functions that run it, not with this module: building the
# parser (`evalsubmit --help`) loads no analysis at all.

PARALLEL_THRESHOLD = 8
"""Files to analyse (those that can reach the SDK) from which the work is shared by processes:
each costs tens of milliseconds, a forked worker a few."""


def add_parser(commands: Any) -> None:
    check = commands.add_parser("check", help="report submit() mistakes in files or folders")
    check.add_argument(
        "paths", nargs="*", type=Path, help="files and folders (default: .); `-`: stdin"
    )
    add_run_options(check)
    add_config_options(check)
    python_option(check)
    add_cache_options(check)
    add_options(check)
    add_noqa.add_option(check)
    check.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    start_run()
    flags = check_flags(args)
    if flags is None:
        return EXIT_ERROR
    if args.add_noqa and (clash := add_noqa.clash(flags)):
        print(f"evalsubmit check: --add-noqa cannot be combined with {clash}", file=sys.stderr)
        return EXIT_ERROR
    if flags.show_settings:  # configuration only: no stdin read, no file analysed
        from evalsubmit.cli import show_settings

        return show_settings.run(args, flags)
    if flags.show_files or flags.watch:
        from evalsubmit.cli import check_modes

        if flags.show_files:
            return check_modes.show_files(args)
        return check_modes.watch(args, lambda: check_once(args, flags))
    return check_once(args, flags)


def check_once(args: argparse.Namespace, flags: CheckFlags) -> int:
    """One check of ``args.paths`` as ``flags`` ask; the exit code."""
    import time

    from evalsubmit.cli.configured import CheckConfiguration, ConfigError
    from evalsubmit.cli.finish import finish
    from evalsubmit.cli.formats import Report
    from evalsubmit.cli.output import shown

    started = time.perf_counter()
    stdin = None
    if flags.stdin_filename:
        from evalsubmit.cli.stdin import read_stdin

        stdin = read_stdin(flags.stdin_filename)
    if flags.stdin_filename and stdin is None:
        return EXIT_ERROR
    missing = [str(p) for p in args.paths if not (stdin or os.path.lexists(p))]
    if missing:
        missing_text = shown(", ".join(missing))
        print(f"evalsubmit: no such file or directory: {missing_text}", file=sys.stderr)
        if any(p.startswith("-") and p != "-" for p in missing):
            print(
                "evalsubmit: hint: every word after `--` is a file name: put options before "
                "`--` (a pre-commit hook's `args` follow its entry's `--`: see the README)",
                file=sys.stderr,
            )
        return EXIT_ERROR
    python = interpreter(args.python)
    if python is None:
        return EXIT_ERROR
    skipped: list[Skipped] = []
    try:  # the project's configuration files, under the command line's flags
        configuration = CheckConfiguration(args)
        if stdin is not None:
            if configuration.force_excluded(stdin.path):  # as ruff: nothing checked, exit 0
                from evalsubmit.cli.check_modes import excluded_stdin

                return excluded_stdin(stdin, flags)
            files = [stdin.path]
        else:
            on_skip = lambda path, why: skipped.append((path, why))  # noqa: E731
            cache_dir = chosen_cache_folder(args)
            skip = [cache_dir] if cache_dir is not None else []
            files = list(configuration.files(args.paths, on_skip, skip))
        options = {path: configuration.options_for(path) for path in files}
    except ConfigError as error:
        print("\n".join(f"evalsubmit: {shown(line)}" for line in error.lines()), file=sys.stderr)
        return EXIT_ERROR
    # --strict fails on a file that cannot be parsed: every file is analysed. Otherwise a file
    # that cannot reach the SDK is not even parsed (as a file without imports never was).
    strict = configuration.strict or stdin is not None
    max_chars = min((o.max_chars for o in options.values()), default=0)
    # The files that can reach the SDK come as the scan finds them; the first are analysed
    # while it reads the rest.
    reach = iter(files) if strict else relevant(files, python, max_chars)
    if flags.fix is not None and not strict:  # their ES190/ES191 fixes need an analysis
        reach = suppressions.and_those_holding_ours(reach, files)
    analysed = {
        result.path: result
        for result in _cached_or_analysed(reach, options, args, python, flags.fix, stdin)
    }
    # in the files' order (remote findings are routed in this order)
    results = {path: analysed[path] for path in files if path in analysed}
    for path in files:
        if path not in results:  # cannot reach the SDK: no finding of its own (not parsed)
            results[path] = FileResult(path, [], unread=True)
    totals = None
    if flags.fix is not None:
        from evalsubmit.cli.fixing import fix_results

        # never the file named by --stdin-filename: its fixed source goes to stdout
        totals = fix_results(results, flags.fix, stdin is None, configuration.left_out)
    route_remote_findings(results, options)
    suppressions.judge(results, options, python)
    if args.add_noqa:
        return add_noqa.run(results, files, configuration.left_out)
    internal = False
    for path in files:
        result = results[path]
        for failure in result.internal:  # the rest of the file was analysed and is reported
            internal = True
            print(f"evalsubmit: {shown(path)}: internal error at {shown(failure)}", file=sys.stderr)
        if result.error:
            internal = True
            print(f"evalsubmit: {shown(path)}: {shown(result.error)}", file=sys.stderr)
            skipped.append((path, result.error))
        elif result.skipped:
            skipped.append((path, result.skipped))
    checked = sum(1 for r in results.values() if not (r.error or r.skipped))
    findings = [
        (path, f)
        for path in files
        for f in sorted(results[path].findings, key=lambda f: (f.span, f.code))
    ]
    notes = configuration.sdk_notes(options.values(), python)
    flags = replace(flags, strict=configuration.strict)
    report = Report(
        findings,
        checked,
        notes,
        skipped,
        sources={path: result.lines for path, result in results.items()},
        cell_sources={p: r.cell_lines for p, r in results.items() if r.cell_lines is not None},
        unsafe_fixes=flags.unsafe_fixes,
        effects=configuration.effects(options),
        file_ignores=suppressions.file_ignores(results),
    )
    if flags.verbose:
        from evalsubmit.cli.check_modes import explain

        explain(configuration, files, results, skipped, time.perf_counter() - started)
    stdin_fix = results[stdin.path].fix if stdin is not None else None
    fixed_stdin = stdin_fix.fixed if stdin_fix is not None else None
    return finish(
        flags, report, internal=internal, totals=totals, stdin=stdin, fixed_stdin=fixed_stdin
    )


@dataclass(slots=True)
class FileResult:
    """What ``check`` reports for one file."""

    path: Path
    findings: list[Finding]
    error: str | None = None
    """An internal error (exit 2)."""
    internal: tuple[str, ...] = ()
    """Statements an engine bug made the analysis skip (exit 2; the rest is reported)."""
    remote: tuple[tuple[Path, Finding], ...] = ()
    lines: list[str] = field(default_factory=list)
    suppressed: list[Finding] = field(default_factory=list)
    """The findings suppression comments silenced (ES190 tells used ones from unused ones)."""
    skipped: str | None = None
    """Why the file was not checked (a warning; a failure with --strict)."""
    fix: FileFix | None = None
    """With --fix/--diff: the fixed text (``findings`` and ``lines`` are then the fixed text's)."""
    unread: bool = False
    """Not analysed: it cannot reach the SDK (:mod:`evalsubmit.workspace.relevance`)."""
    observed: Grounds | None = None
    """What the analysis stood on, for the result cache (None: not to be kept)."""
    cell_lines: dict[int, list[str]] | None = None
    """A notebook's code cells' lines by cell index (its findings are cell-relative)."""


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
    """The results of ``files`` (in no particular order): the first here, the others by worker
    processes from the :data:`PARALLEL_THRESHOLD`-th file on, started (after the first's
    analysis) while ``files`` is still being read; with
    ``observe``, with what each stood on (for the result cache)."""
    workers = jobs or os.cpu_count() or 1
    if stdin is not None:
        _analysis_starts()
        yield _analyse_one(stdin.path, options[stdin.path], python, fix, stdin)
        return
    stream = iter(files)
    first = next(stream, None)
    if first is None:
        return
    # The first file is analysed here, before any worker exists: what it warms (the engine's
    # lazily loaded parts, the project's index of which files may reach a module) is then
    # inherited by the forked workers instead of being built again in each.
    _analysis_starts()
    yield _analyse_one(first, options[first], python, fix, observe=observe)
    waiting: list[Path] = []
    for path in stream:
        waiting.append(path)
        if workers > 1 and len(waiting) + 1 >= PARALLEL_THRESHOLD:
            import gc
            from functools import partial

            from evalsubmit.cli.workers import in_workers

            gc.freeze()  # what is loaded now is shared, not copied by the workers' collector
            task = partial(_analyse_batch, python=python, fix=fix, observe=observe)
            each = [(path, options[path]) for path in waiting]
            rest = ((path, options[path]) for path in stream)
            yield from in_workers(each, rest, workers, task)
            return
    for path in waiting:
        yield _analyse_one(path, options[path], python, fix, observe=observe)


def _analysis_starts() -> None:
    # Loaded before the collector resumes (and inherited by forked workers, not imported
    # again in each): start-up is over; what is loaded now is frozen, shared by the workers
    # rather than copied by their collector.
    import evalsubmit.analysis.engine.analyze  # noqa: F401

    collector.resume()


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
