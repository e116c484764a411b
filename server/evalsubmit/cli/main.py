"""``evalsubmit``: check / preview / rule / serve."""

from __future__ import annotations

import argparse
import contextlib
import json
import logging
import os
import sys
from collections.abc import Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from evalsubmit import __version__
from evalsubmit.analysis import (
    AnalysisOptions,
    Finding,
    ModuleReport,
    Project,
    Severity,
    TargetPreview,
    analyze_source,
    installed_sdk,
    visible,
)
from evalsubmit.analysis.rules import RULES, rules_markdown
from evalsubmit.cli.output import Skipped, render
from evalsubmit.core.lines import split_lines
from evalsubmit.core.sourcefile import UnreadableSource, read_source
from evalsubmit.sdk.releases import version_note
from evalsubmit.workspace.interpreter import default_interpreter, interpreter_from_setting
from evalsubmit.workspace.walk import python_files

EXIT_CLEAN, EXIT_FINDINGS, EXIT_ERROR = 0, 1, 2
PARALLEL_THRESHOLD = 64
MAX_JOBS = 256


def main(argv: Sequence[str] | None = None) -> int:
    _never_fail_on_output()
    # What the CLI skips is in its output; the library's own log lines (e.g. the project
    # listing's walk) would only repeat them on stderr.
    logging.getLogger("evalsubmit").addHandler(logging.NullHandler())
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_CLEAN if exit_.code == 0 else EXIT_ERROR
    try:
        result: int = args.handler(args)
        return result
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN


def _never_fail_on_output() -> None:
    """A message or a file name that the output's encoding cannot hold (``PYTHONIOENCODING=
    ascii``, a Windows console, a non-UTF-8 file name) is escaped, never a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="backslashreplace")


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {text!r}") from None
    if not 0 <= jobs <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected 0 (one per core) to {MAX_JOBS}, got {text}")
    return jobs


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="evalsubmit", description=__doc__)
    parser.add_argument("--version", action="version", version=f"evalsubmit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)

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
    _python_option(check)
    check.set_defaults(handler=_check)

    preview = commands.add_parser("preview", help="print the target JSON for a runner")
    preview.add_argument("location", help="PATH:LINE[:COL] (1-based)")
    _python_option(preview)
    preview.set_defaults(handler=_preview)

    rule = commands.add_parser("rule", help="print a rule's documentation")
    rule.add_argument("code", nargs="?", help="e.g. ES101; omit to list every rule")
    rule.add_argument("--markdown", action="store_true", help="every rule's docs as Markdown")
    rule.set_defaults(handler=_rule)

    serve = commands.add_parser("serve", help="run the language server (stdio)")
    serve.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    serve.set_defaults(handler=_serve)
    return parser


def _python_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--python",
        metavar="PATH",
        help="the Python (an interpreter or its virtualenv folder) whose installed packages "
        "imports are read from and whose SDK version is compared; read, never imported "
        "(default: the active $VIRTUAL_ENV, else the Python running evalsubmit)",
    )


def _interpreter(value: str | None) -> Path | None:
    """The interpreter of ``--python`` (None and a message when it does not exist)."""
    if value is None:
        return default_interpreter()
    python = interpreter_from_setting(value, Path.cwd())
    if python is None or not python.is_file():
        print(f"evalsubmit: --python: no Python interpreter at {value}", file=sys.stderr)
        return None
    return python


def _codes(text: str) -> frozenset[str]:
    codes = frozenset(code.strip().upper() for code in text.split(",") if code.strip())
    unknown = [c for c in codes if not any(rule.startswith(c) for rule in RULES)]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown rule code(s): {', '.join(sorted(unknown))}")
    return codes


def _check(args: argparse.Namespace) -> int:
    missing = [str(p) for p in args.paths if not os.path.lexists(p)]
    if missing:
        print(f"evalsubmit: no such file or directory: {', '.join(missing)}", file=sys.stderr)
        return EXIT_ERROR
    python = _interpreter(args.python)
    if python is None:
        return EXIT_ERROR
    skipped: list[Skipped] = []
    files = list(python_files(args.paths, on_skip=lambda path, why: skipped.append((path, why))))
    options = AnalysisOptions(select=args.select, ignore=args.ignore)
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


def _route_remote_findings(results: dict[Path, FileResult], options: AnalysisOptions) -> None:
    """A bad value written in one checked file but submitted from another is reported in the
    file that writes it; each file is analysed once (forward), so the check stays linear."""
    by_resolved = {_resolved(path): result for path, result in results.items()}
    for result in list(results.values()):
        for target, finding in result.remote:
            owner = by_resolved.get(target)
            if owner is None:
                continue
            for kept in visible([finding], owner.lines, options):
                if kept not in owner.findings:
                    owner.findings.append(kept)


def _analyse_all(
    files: list[Path], options: AnalysisOptions, jobs: int, python: Path
) -> Iterable[FileResult]:
    workers = jobs or os.cpu_count() or 1
    if workers > 1 and len(files) >= PARALLEL_THRESHOLD:
        chunk = max(1, len(files) // (workers * 8))
        n = len(files)
        with ProcessPoolExecutor(workers) as pool:
            yield from pool.map(_analyse_one, files, [options] * n, [python] * n, chunksize=chunk)
    else:
        for path in files:
            yield _analyse_one(path, options, python)


_PROJECTS: dict[tuple[Path, Path], Project] = {}
"""Per worker process: one project per (root, interpreter), reused across its files."""


def _analyse_one(path: Path, options: AnalysisOptions, python: Path) -> FileResult:
    try:
        # bytes: up to 4 per character in UTF-8; the engine then applies its character limit
        text = read_source(path, max_bytes=4 * options.max_chars).text
    except UnreadableSource as error:
        return FileResult(path, [], skipped=error.reason)
    root = _project_root(path)
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


def _resolved(path: Path) -> Path:
    """The file's real path; as given when it cannot be resolved (a loop, a path too long)."""
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _project_root(path: Path) -> Path:
    folder = _resolved(path).parent
    for candidate in (folder, *folder.parents):
        markers = ("pyproject.toml", ".git", "setup.py")
        if any(os.path.exists(candidate / marker) for marker in markers):
            return candidate
    return folder


def _preview(args: argparse.Namespace) -> int:
    location: str = args.location
    parts = location.rsplit(":", 2)
    try:
        if len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit():
            path, line, col = Path(parts[0]), int(parts[1]), int(parts[2]) - 1
        else:
            path_text, line_text = location.rsplit(":", 1)
            path, line, col = Path(path_text), int(line_text), -1
    except ValueError:
        print("evalsubmit: expected PATH:LINE[:COL]", file=sys.stderr)
        return EXIT_ERROR
    try:
        text = read_source(path).text
    except UnreadableSource as error:
        print(f"evalsubmit: cannot read {path}: {error.reason}", file=sys.stderr)
        return EXIT_ERROR
    python = _interpreter(args.python)
    if python is None:
        return EXIT_ERROR
    report = analyze_source(text, path=path, project=Project(_project_root(path), python=python))
    preview = _preview_on_line(report, line, col)
    if preview is None:
        print(f"evalsubmit: no runner or target= at {location}", file=sys.stderr)
        return EXIT_FINDINGS
    if preview.submittable:
        print(json.dumps(preview.target, indent=2))
        return EXIT_CLEAN
    print(preview.rendered)
    for reason in (*preview.problems, *(f"unknown: {u}" for u in preview.unknowns)):
        print(f"cannot derive: {reason}", file=sys.stderr)
    return EXIT_FINDINGS


def _preview_on_line(report: ModuleReport, line: int, col: int) -> TargetPreview | None:
    if col >= 0:
        return report.preview_at(line, col)
    candidates = [p for p in report.runners if p.span.line <= line <= p.span.end_line]
    candidates += [
        s.target for s in report.submits if s.target and s.span.line <= line <= s.span.end_line
    ]
    return candidates[0] if candidates else None


def _rule(args: argparse.Namespace) -> int:
    if args.markdown:
        sys.stdout.write(rules_markdown())
        return EXIT_CLEAN
    if not args.code:
        for rule in RULES.values():
            print(f"{rule.code}  {rule.kind:<24} {rule.severity:<8} {rule.title}")
        return EXIT_CLEAN
    found = RULES.get(args.code.upper())
    if found is None:
        print(f"evalsubmit: unknown rule {args.code}; known: {', '.join(RULES)}", file=sys.stderr)
        return EXIT_ERROR
    print(f"{found.code} {found.kind} ({found.severity}): {found.title}\n\n{found.docs}")
    return EXIT_CLEAN


def _serve(args: argparse.Namespace) -> int:
    from evalsubmit.lsp import run_server

    argv = ["--tcp", args.tcp] if args.tcp else []
    result = run_server(argv)
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
