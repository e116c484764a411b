"""``--output-format grouped``: the findings under their file, as ruff's ``grouped``::

    jobs/nightly.py:
      14:5  ES102 [*] `config=` is a row-evaluation option; ...
      16:18 ES101 submit() takes either ...

Lines and columns are right-padded to line up within a file; files in name order, each block
followed by a blank line; then the summary of the text formats (skipped paths, counts,
configuration effects, notes) and the fix lines. ``[*]`` marks what ``--fix`` fixes, as in
``concise``.
"""

from __future__ import annotations

from pathlib import Path

from evalsubmit.cli.formats import Report, fix_status, fix_summary, fixes_applied, mark
from evalsubmit.core.findings import Finding


def render(report: Report) -> str:
    from evalsubmit.cli.output import shown, text_tail

    by_file: dict[Path, list[Finding]] = {}
    for path, finding in report.findings:
        by_file.setdefault(path, []).append(finding)
    marked = fix_status(report)
    lines: list[str] = []
    for path in sorted(by_file, key=str):
        findings = by_file[path]
        row_width = max(len(_row(f)) for f in findings)
        col_width = max(len(str(f.span.col + 1)) for f in findings)
        lines.append(f"{shown(path)}:")
        for f in findings:
            row = _row(f).rjust(row_width)
            col = str(f.span.col + 1).ljust(col_width)
            fix = mark(f, report) if marked else ""
            lines.append(f"  {row}:{col} {f.code} {fix}{shown(f.message)}")
        lines.append("")
    lines += fixes_applied(report)
    lines += text_tail(
        list(report.findings),
        report.files_checked,
        list(report.notes),
        list(report.skipped),
        list(report.effects),
    )
    lines += fix_summary(report)
    return "".join(f"{line}\n" for line in lines)


def _row(finding: Finding) -> str:
    """The finding's line, with its cell in a notebook (``cell 7:5``, as concise prints it)."""
    line = str(finding.span.line)
    return line if finding.cell is None else f"cell {finding.cell + 1}:{line}"
