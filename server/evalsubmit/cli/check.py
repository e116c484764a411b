"""``evalsubmit check PATHS``: report submit() mistakes in files or folders, for CI."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.cli import suppressions
from evalsubmit.cli.check_analysis import FileResult, _cached_or_analysed
from evalsubmit.cli.check_flags import (
    CheckFlags,
    add_add_noqa_option,
    add_cache_options,
    add_noqa_clash,
    add_options,
    add_run_options,
    check_flags,
    chosen_cache_folder,
)
from evalsubmit.cli.common import EXIT_ERROR, interpreter, python_option
from evalsubmit.cli.configured import add_config_options
from evalsubmit.cli.projects import relevant, route_remote_findings, start_run
from evalsubmit.core.records import replace

if TYPE_CHECKING:
    from evalsubmit.cli.output import Skipped

# The analysis is imported by the functions that run it, not with this module: building the
# parser (`evalsubmit --help`) loads no analysis at all.


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
    add_add_noqa_option(check)
    check.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    start_run()
    flags = check_flags(args)
    if flags is None:
        return EXIT_ERROR
    if args.add_noqa and (clash := add_noqa_clash(flags)):
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
        from evalsubmit.cli import add_noqa

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
