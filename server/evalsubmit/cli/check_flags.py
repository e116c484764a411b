"""The options of ``evalsubmit check`` that shape its report and fixes, ruff's names and
meanings: ``--output-format``, ``--statistics``, ``--exit-zero``, ``--exit-non-zero-on-fix``,
``--output-file``, ``--stdin-filename``, ``--fix``, ``--fix-only``, ``--diff``,
``--unsafe-fixes``, ``--show-fixes``, ``--show-settings``, ``--show-files``, ``--watch``, the
log levels ``-q``/``-s``/``-v`` (and ``--format``, the deprecated spelling of
``--output-format``). With no path, ``check`` checks ``.``; with ``--stdin-filename`` it reads
stdin (``-`` as the path is optional, as in ruff)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Final

from evalsubmit.cli.configured import rule_codes
from evalsubmit.cli.formats import DEFAULT_FORMAT, FORMATS, LEGACY_FORMATS
from evalsubmit.core.records import Record
from evalsubmit.workspace.walk import CACHE_FOLDER_NAME

STDIN = "-"
CACHE_DIR_VARIABLE = "EVALSUBMIT_CACHE_DIR"
MAX_JOBS = 256


class FixRequest(Record):
    """Asked of every file's analysis (so it is sent to worker processes: plain data)."""

    __slots__ = ("diff", "unsafe")
    unsafe: Final[bool]
    diff: Final[bool]
    """Only show what would change (``--diff``): nothing is written."""

    def __init__(self, unsafe: bool = False, diff: bool = False) -> None:
        self.unsafe = unsafe
        self.diff = diff


class CheckFlags(Record):
    """The options of ``evalsubmit check`` that shape its output and exit code."""

    __slots__ = (
        "exit_non_zero_on_fix",
        "exit_zero",
        "fix",
        "fix_only",
        "output_file",
        "output_format",
        "quiet",
        "show_files",
        "show_fixes",
        "show_settings",
        "silent",
        "statistics",
        "stdin_filename",
        "strict",
        "unsafe_fixes",
        "verbose",
        "watch",
    )
    output_format: Final[str]
    statistics: Final[bool]
    exit_zero: Final[bool]
    exit_non_zero_on_fix: Final[bool]
    output_file: Final[Path | None]
    stdin_filename: Final[Path | None]
    """Set when the source is read from stdin: the path it is checked as."""
    fix: Final[FixRequest | None]
    unsafe_fixes: Final[bool]
    strict: Final[bool]
    show_settings: Final[bool]
    """Print the settings of the one path given (:mod:`evalsubmit.cli.show_settings`)."""
    show_fixes: Final[bool]
    """List what was fixed, per file and rule, before the summary (ruff's table)."""
    fix_only: Final[bool]
    """Fix, and report only what was fixed: the findings that remain are neither printed nor
    a reason to exit 1 (ruff's ``--fix-only``)."""
    show_files: Final[bool]
    """Print the files that would be checked, one per line; check nothing."""
    watch: Final[bool]
    quiet: Final[bool]
    """``-q``: the findings only (no summary; skipped paths go to stderr as warnings)."""
    silent: Final[bool]
    """``-s``: nothing printed; the exit code says it all."""
    verbose: Final[bool]
    """``-v``: what was found, skipped and why, and timings, on stderr."""

    def __init__(
        self,
        output_format: str,
        statistics: bool = False,
        exit_zero: bool = False,
        exit_non_zero_on_fix: bool = False,
        output_file: Path | None = None,
        stdin_filename: Path | None = None,
        fix: FixRequest | None = None,
        unsafe_fixes: bool = False,
        strict: bool = False,
        show_settings: bool = False,
        show_fixes: bool = False,
        fix_only: bool = False,
        show_files: bool = False,
        watch: bool = False,
        quiet: bool = False,
        silent: bool = False,
        verbose: bool = False,
    ) -> None:
        self.output_format = output_format
        self.statistics = statistics
        self.exit_zero = exit_zero
        self.exit_non_zero_on_fix = exit_non_zero_on_fix
        self.output_file = output_file
        self.stdin_filename = stdin_filename
        self.fix = fix
        self.unsafe_fixes = unsafe_fixes
        self.strict = strict
        self.show_settings = show_settings
        self.show_fixes = show_fixes
        self.fix_only = fix_only
        self.show_files = show_files
        self.watch = watch
        self.quiet = quiet
        self.silent = silent
        self.verbose = verbose


def add_options(check: argparse.ArgumentParser) -> None:
    check.add_argument(
        "--output-format",
        choices=FORMATS,
        default=None,
        help=f"how findings are printed (default: {DEFAULT_FORMAT}, one line each; ruff "
        "defaults to full, evalsubmit keeps concise for compatibility with earlier releases)",
    )
    check.add_argument(
        "--format",
        choices=sorted(LEGACY_FORMATS),
        default=None,
        help="deprecated: use --output-format (text is concise)",
    )
    check.add_argument(
        "--statistics", action="store_true", help="print counts per rule instead of findings"
    )
    check.add_argument(
        "-e",
        "--exit-zero",
        action="store_true",
        help="exit 0 even with findings (2 still means a usage or internal error)",
    )
    check.add_argument(
        "--exit-non-zero-on-fix",
        action="store_true",
        help="with --fix: exit 1 when anything was fixed, even if nothing remains",
    )
    check.add_argument(
        "-o",
        "--output-file",
        type=Path,
        metavar="PATH",
        help="write the report to PATH (folders created) instead of stdout",
    )
    check.add_argument(
        "--stdin-filename",
        type=Path,
        metavar="PATH",
        help="read the source from stdin (`-` as the path is optional) and check it as if it "
        "were at PATH (imports of sibling modules resolve from there; reported under that name)",
    )
    check.add_argument(
        "--fix",
        action="store_true",
        help="apply the safe fixes (the editor's fix-all) and report what remains; with "
        "stdin, the fixed source goes to stdout",
    )
    check.add_argument(
        "--diff",
        action="store_true",
        help="print a unified diff of what --fix would change and write nothing "
        "(exit 1 when there would be changes)",
    )
    check.add_argument(
        "--fix-only",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="apply the fixes like --fix, but report only what was fixed: the findings that "
        "remain are not printed and do not make the exit code 1 (ruff's --fix-only)",
    )
    check.add_argument(
        "--show-fixes",
        action=argparse.BooleanOptionalAction,
        default=False,
        help="with --fix (or --fix-only, --diff): list what was fixed in each file, per rule",
    )
    check.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also apply fixes marked unsafe (see `evalsubmit rule CODE`)",
    )
    check.add_argument(
        "--show-settings",
        action="store_true",
        help="print the settings used for the one PATH (a file, or the files directly in a "
        "folder) and where each comes from: configuration files, rules on and off, "
        "exclusion, overrides; checks nothing (with --output-format json: a JSON object)",
    )
    check.add_argument(
        "--show-files",
        action="store_true",
        help="print the files that would be checked (after exclude and .gitignore), one per "
        "line; checks nothing",
    )
    check.add_argument(
        "-w",
        "--watch",
        action="store_true",
        help="check again whenever a checked file or a configuration file changes (Ctrl-C stops)",
    )
    levels = check.add_mutually_exclusive_group()
    levels.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="also say on stderr what was checked, skipped and why, and how long it took",
    )
    levels.add_argument(
        "-q", "--quiet", action="store_true", help="print the findings only: no summary"
    )
    levels.add_argument(
        "-s",
        "--silent",
        action="store_true",
        help="print nothing (not even findings); the exit code tells",
    )


# Here, not in .add_noqa: the parser and the flags' check never load what --add-noqa runs.
def add_add_noqa_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--add-noqa",
        action="store_true",
        help="add `# noqa: ESxxx` to each line with findings (to baseline a repository)",
    )


def add_noqa_clash(flags: CheckFlags) -> str | None:
    """The flag ``--add-noqa`` cannot run with (it writes files and reports nothing), if any."""
    if flags.fix is not None:
        return "--diff" if flags.fix.diff else "--fix"
    if flags.stdin_filename is not None:
        return "--stdin-filename"
    if flags.show_settings:
        return "--show-settings"
    return None


def add_run_options(check: argparse.ArgumentParser) -> None:
    """What is checked and how: ``--select``, ``--ignore``, ``--jobs``, ``--strict``."""
    check.add_argument(
        "--select", type=rule_codes, default=frozenset(), help="codes to report (replaces select)"
    )
    check.add_argument("--ignore", type=rule_codes, default=frozenset(), help="codes to skip")
    check.add_argument(
        "--jobs",
        type=_jobs,
        default=0,
        help=f"processes analysing (0: one per core; at most {MAX_JOBS})",
    )
    check.add_argument(
        "--strict",
        action="store_true",
        help="fail (exit 1) when any file or folder was skipped, not only on findings",
    )


def _jobs(text: str) -> int:
    try:
        jobs = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of processes, got {text!r}") from None
    if not 0 <= jobs <= MAX_JOBS:
        raise argparse.ArgumentTypeError(f"expected 0 (one per core) to {MAX_JOBS}, got {text}")
    return jobs


def add_cache_options(check: argparse.ArgumentParser) -> None:
    """``--no-cache`` and ``--cache-dir``, ruff's names (the cache itself is not loaded)."""
    check.add_argument(
        "-n",
        "--no-cache",
        action="store_true",
        help="neither read nor write the result cache: every file is analysed",
    )
    check.add_argument(
        "--cache-dir",
        metavar="PATH",
        type=Path,
        help=f"the result cache's folder (default: ${CACHE_DIR_VARIABLE}, else "
        f"{CACHE_FOLDER_NAME} at the project root)",
    )


def chosen_cache_folder(args: argparse.Namespace) -> Path | None:
    """The cache folder the command line or the environment chose (None: at each project's
    root), with ``--no-cache`` too: the walk never enters it."""
    variable = os.environ.get(CACHE_DIR_VARIABLE)
    chosen = args.cache_dir or (Path(variable) if variable else None)
    return chosen.absolute() if chosen is not None else None


def check_flags(args: argparse.Namespace) -> CheckFlags | None:
    """The validated flags; None (and a message on stderr) on a usage error."""
    fmt = args.output_format
    if args.format is not None:
        legacy = LEGACY_FORMATS[args.format]
        if fmt is not None and fmt != legacy:
            return _usage(f"--format {args.format} contradicts --output-format {fmt}")
        print(
            f"evalsubmit: warning: --format is deprecated; use --output-format {legacy}",
            file=sys.stderr,
        )
        fmt = legacy
    if args.stdin_filename is not None:  # stdin, whatever the paths (as ruff)
        for path in args.paths:
            if str(path) != STDIN:
                print(
                    f"evalsubmit: warning: ignoring {path} in favor of standard input "
                    "(--stdin-filename reads stdin)",
                    file=sys.stderr,
                )
        args.paths = [Path(STDIN)]
    elif not args.paths:
        args.paths = [Path(".")]  # ruff's default: the current folder
    stdin = [str(p) for p in args.paths].count(STDIN)
    if stdin and (len(args.paths) != 1 or args.stdin_filename is None):
        return _usage(
            "`-` reads the source from stdin: give it alone, with --stdin-filename PATH "
            "(the path it is checked as)"
        )
    from evalsubmit.cli.configured import config_arguments

    if problem := config_arguments(args):
        return _usage(problem)
    if args.watch and (stdin or args.fix or args.diff or args.show_settings or args.show_files):
        return _usage(
            "--watch checks files again as they change: not with stdin, --fix, "
            "--diff, --show-settings or --show-files"
        )
    if args.show_settings and (problem := _show_settings_problem(args, fmt)):
        return _usage(problem)
    fixing = args.fix or args.diff or args.fix_only
    return CheckFlags(
        output_format=fmt or DEFAULT_FORMAT,
        statistics=args.statistics,
        exit_zero=args.exit_zero,
        exit_non_zero_on_fix=args.exit_non_zero_on_fix,
        output_file=args.output_file,
        stdin_filename=args.stdin_filename,
        fix=FixRequest(unsafe=args.unsafe_fixes, diff=args.diff) if fixing else None,
        unsafe_fixes=args.unsafe_fixes,
        strict=args.strict,
        show_settings=args.show_settings,
        show_fixes=args.show_fixes,
        fix_only=args.fix_only and not args.diff,
        show_files=args.show_files,
        watch=args.watch,
        quiet=args.quiet,
        silent=args.silent,
        verbose=args.verbose,
    )


def _show_settings_problem(args: argparse.Namespace, fmt: str | None) -> str | None:
    """Why ``--show-settings`` cannot run with these options; None when it can."""
    if len(args.paths) != 1:
        return "--show-settings shows the settings of one path: give exactly one"
    checking = [flag for flag in ("fix", "diff", "statistics", "fix_only") if getattr(args, flag)]
    if checking:
        flag = checking[0].replace("_", "-")
        return f"--show-settings checks nothing: it cannot be combined with --{flag}"
    if fmt not in (None, "concise", "full", "json"):
        return "--show-settings prints text, or JSON with --output-format json"
    return None


def _usage(message: str) -> CheckFlags | None:
    print(f"evalsubmit check: {message}", file=sys.stderr)
    return None
