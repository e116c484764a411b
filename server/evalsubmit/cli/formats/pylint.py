"""``--output-format pylint``: ``path:line: [CODE] message``, one finding a line, as ruff's
``pylint`` format (flake8's pylint formatter). The format has no column and no place for a path
that was not checked: those are warned about on stderr."""

from __future__ import annotations

from evalsubmit.cli.formats import Report, in_file


def render(report: Report) -> str:
    from evalsubmit.cli.output import shown  # one line each, inert in a terminal

    lines = []
    for path, f in report.findings:
        span, message = in_file(f)
        lines.append(f"{shown(path)}:{span.line}: [{f.code}] {shown(message)}\n")
    return "".join(lines)
