"""``evalsubmit check PATHS``: report submit() mistakes in files or folders, for CI."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evalsubmit.analysis import (
    AnalysisOptions,
    Finding,
    Project,
    Severity,
    analyze_source,
    visible,
)
from evalsubmit.cli.common import (
    EXIT_CLEAN,
    EXIT_ERROR,
    EXIT_FINDINGS,
    interpreter,
    project_root,
    python_option,
    resolved,
)
from evalsubmit.cli.configured import (
    CheckConfiguration,
    ConfigError,
    add_config_options,
    rule_codes,
)
from evalsubmit.cli.output import Skipped, render
from evalsubmit.core.lines import split_lines
from evalsubmit.core.sourcefile import UnreadableSource, read_source

PARALLEL_THRESHOLD = 64
MAX_JOBS = 256


def add_parser(commands: Any) -> None:
    check = commands.add_parser("check", help="report submit() mistakes in files or folders")
    check.add_argument("paths", nargs="+", type=Path)
    check.add_argument("--format", choices=["text", "json", "sarif"], default="text")
    check.add_argument(
        "--select", type=rule_codes, default=frozenset(), help="codes to report (replaces select)"
    )
    check.add_argument("--ignore", type=rule_codes, default=frozenset(), help="codes to skip")
    add_config_options(check)
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


def run(args: argparse.Namespace) -> int:
    missing = [str(p) for p in args.paths if not os.path.lexists(p)]
    if missing:
        print(f"evalsubmit: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return EXIT_ERROR
    python = interpreter(args.python)
    if python is None:
        return EXIT_ERROR
    skipped: list[Skipped] = []
    try:  # the project's configuration files, under the command line's flags
        configuration = CheckConfiguration(args)
        files = list(configuration.files(args.paths, lambda path, why: skipped.append((path, why))))
        options = {path: configuration.options_for(path) for path in files}
    except ConfigError as error:
        print("\n".join(f"evalsubmit: {line}" for line in error.lines()), file=sys.stderr)
        return EXIT_ERROR
    results = {result.path: result for result in _analyse_all(files, options, args.jobs, python)}
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
    notes = configuration.sdk_notes(options.values(), python)
    sys.stdout.write(render(args.format, findings, checked, notes, skipped))
    if internal:
        return EXIT_ERROR
    # Information (ES111: another SDK installed) is shown, never a reason to fail a CI run.
    failing = [f for _, f in findings if f.severity is not Severity.INFORMATION]
    return EXIT_FINDINGS if failing or (configuration.strict and skipped) else EXIT_CLEAN


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


def _route_remote_findings(
    results: dict[Path, FileResult], options: dict[Path, AnalysisOptions]
) -> None:
    """A bad value written in one checked file but submitted from another is reported in the
    file that writes it; each file is analysed once (forward), so the check stays linear."""
    by_resolved = {resolved(path): result for path, result in results.items()}
    for result in list(results.values()):
        for target, finding in result.remote:
            owner = by_resolved.get(target)
            if owner is None:
                continue
            for kept in visible([finding], owner.lines, options[owner.path]):
                if kept not in owner.findings:
                    owner.findings.append(kept)


def _analyse_all(
    files: list[Path], options: dict[Path, AnalysisOptions], jobs: int, python: Path
) -> Iterable[FileResult]:
    workers = jobs or os.cpu_count() or 1
    each = [options[path] for path in files]
    if workers > 1 and len(files) >= PARALLEL_THRESHOLD:
        chunk = max(1, len(files) // (workers * 8))
        n = len(files)
        with ProcessPoolExecutor(workers) as pool:
            yield from pool.map(_analyse_one, files, each, [python] * n, chunksize=chunk)
    else:
        for path, path_options in zip(files, each, strict=True):
            yield _analyse_one(path, path_options, python)


_PROJECTS: dict[tuple[Path, Path], Project] = {}
"""Per worker process: one project per (root, interpreter), reused across its files."""


def _analyse_one(path: Path, options: AnalysisOptions, python: Path) -> FileResult:
    try:
        # bytes: up to 4 per character in UTF-8; the engine then applies its character limit
        text = read_source(path, max_bytes=4 * options.max_chars).text
    except UnreadableSource as error:
        return FileResult(path, [], skipped=error.reason)
    root = project_root(path)
    project = _PROJECTS.get((root, python))
    if project is None:
        project = _PROJECTS[(root, python)] = Project(root, python=python)
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
