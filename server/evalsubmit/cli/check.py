"""``evalsubmit check PATHS``: report submit() mistakes in files or folders, for CI."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.cli.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    interpreter,
    project_root,
    python_option,
    resolved,
)

if TYPE_CHECKING:
    from evalsubmit.analysis import AnalysisOptions, Finding, Project

# The analysis is imported by the functions that run it, not with this module: building the
# parser (`evalsubmit --version`, `--help`) loads no analysis at all.

PARALLEL_THRESHOLD = 8
"""Files to analyse (those that can reach the SDK) from which the work is shared by processes:
each costs tens of milliseconds, a forked worker a few."""
MAX_JOBS = 256


def add_parser(commands: Any) -> None:
    check = commands.add_parser("check", help="report submit() mistakes in files or folders")
    check.add_argument("paths", nargs="+", type=Path)
    check.add_argument("--format", choices=["text", "json", "sarif"], default="text")
    check.add_argument("--select", type=_codes, default=frozenset(), help="codes to report")
    check.add_argument("--ignore", type=_codes, default=frozenset(), help="codes to skip")
    check.add_argument(
        "--jobs",
        type=_jobs,
        default=0,
        help=f"worker processes (0: one per core; at most {MAX_JOBS})",
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 1) when any file or folder was skipped, not only on findings",
    )
    python_option(check)
    check.set_defaults(handler=run)


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {text!r}") from None
    if not 0 <= jobs <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected 0 (one per core) to {MAX_JOBS}, got {text}")
    return jobs


def _codes(text: str) -> frozenset[str]:
    from evalsubmit.analysis.rules import RULES

    codes = frozenset(code.strip().upper() for code in text.split(",") if code.strip())
    unknown = [c for c in codes if not any(rule.startswith(c) for rule in RULES)]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown rule code(s): {', '.join(sorted(unknown))}")
    return codes


def run(args: argparse.Namespace) -> int:
    from evalsubmit.analysis.engine.options import AnalysisOptions
    from evalsubmit.cli.output import Skipped, render
    from evalsubmit.core.findings import Severity
    from evalsubmit.sdk.releases import version_note
    from evalsubmit.workspace.project import Project, installed_sdk
    from evalsubmit.workspace.walk import python_files

    missing = [str(p) for p in args.paths if not os.path.lexists(p)]
    if missing:
        print(f"evalsubmit: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return EXIT_ERROR
    python = interpreter(args.python)
    if python is None:
        return EXIT_ERROR
    skipped: list[Skipped] = []
    files = list(python_files(args.paths, on_skip=lambda path, why: skipped.append((path, why))))
    options = AnalysisOptions(select=args.select, ignore=args.ignore)
    # --strict fails on a file that cannot be parsed: every file is analysed. Otherwise a file
    # that cannot reach the SDK is not even parsed (as a file without imports never was).
    relevant = set(files) if args.strict else _relevant(files, python, options.max_chars)
    analysed = _analyse_all([f for f in files if f in relevant], options, args.jobs, python)
    results = {result.path: result for result in analysed}
    for path in files:
        if path not in results:  # cannot reach the SDK: no finding of its own (not parsed)
            results[path] = FileResult(path, [], unread=True)
    _route_remote_findings(results, options)
    internal = False
    for path in files:
        result = results[path]
        if result.error:
            internal = True
            print(f"evalsubmit: {path}: {result.error}", file=sys.stderr)
            skipped.append((path, result.error))
        elif result.skipped:
            skipped.append((path, result.skipped))
    checked = sum(1 for r in results.values() if not (r.error or r.skipped))
    findings = [
        (path, f)
        for path in files
        for f in sorted(results[path].findings, key=lambda f: (f.span, f.code))
    ]
    note = version_note(installed_sdk(Project(python=python)))
    notes = [note] if note and options.enabled("ES111") else []
    sys.stdout.write(render(args.format, findings, checked, notes, skipped))
    if internal:
        return EXIT_ERROR
    # Information (ES111: another SDK installed) is shown, never a reason to fail a CI run.
    failing = [f for _, f in findings if f.severity is not Severity.INFORMATION]
    return EXIT_FINDINGS if failing or (args.strict and skipped) else EXIT_CLEAN


@dataclass(slots=True)
class FileResult:
    path: Path
    findings: list[Finding]
    error: str | None = None
    """An internal error (exit 2)."""
    remote: tuple[tuple[Path, Finding], ...] = ()
    lines: list[str] = field(default_factory=list)
    skipped: str | None = None
    """Why the file was not checked (a warning; a failure with --strict)."""
    unread: bool = False
    """Not analysed: it cannot reach the SDK (:mod:`evalsubmit.workspace.relevance`)."""


PREFILTER = True
"""Skip the files that cannot reach the SDK (tests turn it off to compare)."""


def _relevant(files: list[Path], python: Path, max_chars: int) -> set[Path]:
    """The files that may hold a finding of their own, decided from their text."""
    if not PREFILTER:
        return set(files)
    from evalsubmit.workspace.relevance import RelevanceScan

    by_root: dict[Path, list[Path]] = {}
    for path in files:
        by_root.setdefault(_root_of(path), []).append(path)
    relevant: set[Path] = set()
    for root, group in by_root.items():
        scan = RelevanceScan(_project(root, python), max_chars=max_chars)
        relevant |= scan.relevant(group)
    return relevant


def _route_remote_findings(results: dict[Path, FileResult], options: AnalysisOptions) -> None:
    """A bad value written in one checked file but submitted from another is reported in the
    file that writes it; each file is analysed once (forward), so the check stays linear."""
    if not any(result.remote for result in results.values()):
        return
    from evalsubmit.analysis import visible

    by_resolved = {_resolved(path): result for path, result in results.items()}
    for result in list(results.values()):
        for target, finding in result.remote:
            owner = by_resolved.get(target)
            if owner is None:
                continue
            if owner.unread and not owner.lines:
                owner.lines = _lines_of(owner.path)
            for kept in visible([finding], owner.lines, options):
                if kept not in owner.findings:
                    owner.findings.append(kept)


def _analyse_all(
    files: list[Path], options: AnalysisOptions, jobs: int, python: Path
) -> Iterable[FileResult]:
    workers = jobs or os.cpu_count() or 1
    if workers > 1 and len(files) >= PARALLEL_THRESHOLD:
        from concurrent.futures import ProcessPoolExecutor

        chunk = max(1, len(files) // (workers * 8))
        n = len(files)
        import gc

        # Loaded once here, inherited by the forked workers instead of imported in each.
        import evalsubmit.analysis.engine.analyze  # noqa: F401

        gc.freeze()  # what is loaded now is shared, not copied by the workers' collector

        with ProcessPoolExecutor(workers) as pool:
            yield from pool.map(_analyse_one, files, [options] * n, [python] * n, chunksize=chunk)
    else:
        for path in files:
            yield _analyse_one(path, options, python)


_PROJECTS: dict[tuple[Path, Path], Project] = {}
"""Per worker process: one project per (root, interpreter), reused across its files."""


_FOLDERS: dict[Path, tuple[Path, Path]] = {}
"""Per process: a folder as given -> (its real path, its project root)."""


def _folder(path: Path) -> tuple[Path, Path] | None:
    """The real folder and project root of a file that is not a link (one per folder)."""
    if path.is_symlink():
        return None
    known = _FOLDERS.get(path.parent)
    if known is None:
        known = _FOLDERS[path.parent] = (resolved(path.parent), project_root(path))
    return known


def _resolved(path: Path) -> Path:
    known = _folder(path)
    return known[0] / path.name if known else resolved(path)


def _root_of(path: Path) -> Path:
    known = _folder(path)
    return known[1] if known else project_root(path)


def _project(root: Path, python: Path) -> Project:
    from evalsubmit.workspace.project import Project

    project = _PROJECTS.get((root, python))
    if project is None:
        project = _PROJECTS[(root, python)] = Project(root, python=python)
    return project


def _lines_of(path: Path) -> list[str]:
    from evalsubmit.core.lines import split_lines
    from evalsubmit.core.sourcefile import UnreadableSource, read_source

    try:
        return split_lines(read_source(path).text)
    except UnreadableSource:
        return []


def _analyse_one(path: Path, options: AnalysisOptions, python: Path) -> FileResult:
    from evalsubmit.analysis import analyze_source
    from evalsubmit.core.lines import split_lines
    from evalsubmit.core.sourcefile import UnreadableSource, read_source

    try:
        # bytes: up to 4 per character in UTF-8; the engine then applies its character limit
        text = read_source(path, max_bytes=4 * options.max_chars).text
    except UnreadableSource as error:
        return FileResult(path, [], skipped=error.reason)
    project = _project(_root_of(path), python)
    try:
        report = analyze_source(text, path=path, project=project, options=options, reverse=False)
    except Exception as error:  # one bad file must not stop the run
        return FileResult(path, [], f"internal error: {type(error).__name__}: {error}")
    return FileResult(
        path,
        list(report.findings),
        remote=report.remote_findings,
        lines=split_lines(text),
        skipped=report.skipped,
    )
