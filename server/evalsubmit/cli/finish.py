"""The end of ``evalsubmit check``: where the report goes, what goes to stderr, the exit code.

* The report goes to ``--output-file`` (its folders created; stdout stays quiet), else stdout.
  With ``--stdin-filename`` and ``--fix``, stdout carries the fixed source (as ruff does) and
  the report goes to stderr unless ``--output-file`` is given.
* ``--diff``: the diff is the report; "Would fix ..." goes to stderr.
* Machine formats (json, json-lines, sarif, github, gitlab, azure, junit, pylint, rdjson) stay
  parseable: fix summaries and warnings go to stderr; the text formats carry them. Those with no
  place for a path that was not checked (json-lines, pylint, rdjson) warn about it on stderr.
* ``--fix-only`` (ruff's): the findings that remain are not reported; the text formats say what
  was fixed (the table with ``--show-fixes``), the machine formats print nothing.
* ``-q``: the findings only (a text format's summary is dropped; the paths that were not
  checked go to stderr, so a quiet run is never silently partial); ``-s``: nothing at all.
  Neither changes the exit code.
* Exit codes (ruff's): 2 for a usage or internal error (also with ``--exit-zero``); else 0 with
  ``--exit-zero``; else 1 when a finding that is not information remains (or, ``--strict``, a
  path was skipped), when ``--exit-non-zero-on-fix`` and anything was fixed, or with
  ``--diff`` when there would be changes; else 0. With ``--fix-only`` the findings that remain
  do not count: 1 only with ``--exit-non-zero-on-fix`` when anything was fixed (or, ``--strict``,
  a path was skipped).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from evalsubmit.cli.check_flags import CheckFlags
from evalsubmit.cli.common import EXIT_CLEAN, EXIT_ERROR, EXIT_FINDINGS
from evalsubmit.cli.formats import (
    SKIPS_ON_STDERR,
    TEXT_FORMATS,
    Report,
    fix_summary,
    fixable_line,
    fixes_applied,
    render,
)
from evalsubmit.cli.formats.color import use_color
from evalsubmit.cli.output import shown, skipped_line
from evalsubmit.core.records import replace

if TYPE_CHECKING:  # both imported when a fix or stdin needs them
    from evalsubmit.cli.fixing import FixTotals
    from evalsubmit.cli.stdin import StdinSource


def finish(
    flags: CheckFlags,
    report: Report,
    *,
    internal: bool,
    totals: FixTotals | None = None,
    stdin: StdinSource | None = None,
    fixed_stdin: str | None = None,
) -> int:
    """Emit ``report`` as ``flags`` ask; the exit code."""
    for warning in totals.warnings if totals else ():
        print(f"evalsubmit: warning: {shown(warning)}", file=sys.stderr)
    report = replace(report, show_fixes=flags.show_fixes, fix_only=flags.fix_only)
    if totals is not None:
        report = replace(
            report,
            fix_mode=True,
            fixed=totals.fixed,
            fixed_files=totals.files,
            fixed_codes=totals.by_file,
        )
    if flags.fix is not None and flags.fix.diff:
        from evalsubmit.cli.fixing import FixTotals

        return _finish_diff(flags, report, totals or FixTotals(), internal)
    to_stderr = stdin is not None and flags.fix is not None
    if to_stderr and stdin is not None:
        from evalsubmit.cli.stdin import write_source

        write_source(fixed_stdin if fixed_stdin is not None else stdin.text, stdin.encoding)
    stream = sys.stderr if to_stderr else sys.stdout
    color = use_color(None if flags.output_file else stream)
    machine = flags.output_format not in TEXT_FORMATS
    if flags.fix_only and machine:
        text = ""  # as ruff: no finding is reported, and a machine format has nothing else
    else:
        text = render(flags.output_format, report, statistics=flags.statistics, color=color)
    if flags.quiet and not machine and not flags.statistics:
        text = _without_summary(text, report)
    if not flags.silent and not emit(text, flags.output_file, stream):
        return EXIT_ERROR
    if machine and not (flags.quiet or flags.silent):
        for line in [*fixes_applied(report), *(fix_summary(report) if report.fix_mode else [])]:
            print(line, file=sys.stderr)
        no_place = flags.statistics or flags.output_format in SKIPS_ON_STDERR or flags.fix_only
        if no_place:  # a JSON list, a pylint line, ... has no place for them
            for path, reason in report.skipped:
                print(skipped_line(path, reason), file=sys.stderr)
    if internal:
        return EXIT_ERROR
    if flags.exit_zero:
        return EXIT_CLEAN
    if flags.fix_only:  # as ruff: what remains is not reported, so it does not fail the run
        skipped_fails = flags.strict and bool(report.skipped)
        fixed_fails = flags.exit_non_zero_on_fix and bool(report.fixed)
        return EXIT_FINDINGS if skipped_fails or fixed_fails else EXIT_CLEAN
    # Information (ES111: another SDK installed) is shown, never a reason to fail a CI run.
    failing = bool(report.findings) and _failing(report)
    checked_nothing = not report.files_checked and not report.skipped
    if checked_nothing and not flags.silent:
        print("evalsubmit: warning: No Python files found under the given paths", file=sys.stderr)
    if failing or (flags.strict and (report.skipped or checked_nothing)):
        return EXIT_FINDINGS
    if flags.exit_non_zero_on_fix and report.fixed:
        return EXIT_FINDINGS
    return EXIT_CLEAN


def _without_summary(text: str, report: Report) -> str:
    """``text`` without the lines that end a text format (summary, notes, fix counts); the
    paths that were not checked are said on stderr instead."""
    from evalsubmit.cli.output import text_tail

    findings, skipped = list(report.findings), list(report.skipped)
    tail = text_tail(findings, report.files_checked, list(report.notes), skipped, [])
    ending = {*tail, *fix_summary(report), *fixable_line(report), *fixes_applied(report)}
    lines = text.splitlines()
    summary = tail[-1 - len(report.notes)]
    while lines and (not lines[-1].strip() or lines[-1] in ending or lines[-1].startswith(summary)):
        lines.pop()
    for path, reason in skipped:
        print(skipped_line(path, reason), file=sys.stderr)
    return "".join(f"{line}\n" for line in lines)


def _finish_diff(flags: CheckFlags, report: Report, totals: FixTotals, internal: bool) -> int:
    if not emit(totals.diff, flags.output_file, sys.stdout):
        return EXIT_ERROR
    for path, reason in report.skipped:
        print(skipped_line(path, reason), file=sys.stderr)
    for line in fixes_applied(replace(report, fixed_codes=totals.by_file)):
        print(line, file=sys.stderr)
    if totals.fixed:
        files = f"{totals.files} file{'' if totals.files == 1 else 's'}"
        problems = f"{totals.fixed} problem{'' if totals.fixed == 1 else 's'}"
        print(f"Would fix {problems} in {files}.", file=sys.stderr)
    else:
        print("No fixes available.", file=sys.stderr)
    if internal:
        return EXIT_ERROR
    return EXIT_FINDINGS if totals.fixed and not flags.exit_zero else EXIT_CLEAN


def emit(text: str, output_file: Path | None, stream: TextIO) -> bool:
    """Write ``text`` to ``output_file`` (folders created) or ``stream``; False on an error."""
    if output_file is None:
        stream.write(text)
        stream.flush()
        return True
    try:
        output_file.parent.mkdir(parents=True, exist_ok=True)
        # UTF-8 whatever the locale: a report file is read by tools, not a terminal
        output_file.write_text(text, encoding="utf-8", errors="backslashreplace")
    except OSError as error:
        print(
            f"evalsubmit: --output-file: cannot write {shown(output_file)}: "
            f"{shown(error.strerror or error)}",
            file=sys.stderr,
        )
        return False
    return True


def _failing(report: Report) -> bool:
    # loaded here: a run without findings never loads the findings' classes
    from evalsubmit.core.findings import Severity

    return any(f.severity is not Severity.INFORMATION for _, f in report.findings)
