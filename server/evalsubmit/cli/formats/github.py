"""``--output-format github``: GitHub Actions workflow commands, one annotation per finding::

    ::error file=src/job.py,line=7,col=5,endLine=7,endColumn=37,title=ES102 row-opt...::`config=`...

Severity error -> ``::error``, warning -> ``::warning``, information -> ``::notice``. A path
that was not checked is a ``::warning`` on that file, the environment notes are ``::notice``s.
Values are escaped as GitHub's toolkit does (``@actions/core``, ``command.ts``): ``%``, CR and
LF in the message; also ``:`` and ``,`` in properties. Any other control character (ESC, a
hostile file name's terminal sequence: the log viewer would obey it) is shown as a Python
escape (``\\x1b``), as every text format shows it. Paths are relative to the current
folder when under it (a workflow step runs at the repository's root), lines and columns
1-based like every format.
"""

from __future__ import annotations

from pathlib import Path

from evalsubmit.cli.formats import Report, relative
from evalsubmit.cli.output import shown

LEVEL = {"error": "error", "warning": "warning", "information": "notice"}


def escape_data(text: str) -> str:
    return shown(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def command(level: str, properties: dict[str, object], message: str) -> str:
    props = ",".join(f"{key}={escape_property(str(value))}" for key, value in properties.items())
    head = f"{level} {props}" if props else level
    return f"::{head}::{escape_data(message)}"


def as_github(report: Report) -> str:
    cwd = Path.cwd()
    lines = []
    for path, f in report.findings:
        properties: dict[str, object] = {
            "file": relative(path, cwd),
            "line": f.span.line,
            "col": f.span.col + 1,
            "endLine": f.span.end_line,
            "endColumn": f.span.end_col + 1,
            "title": f"{f.code} {f.kind}",
        }
        message = f.message
        if f.cell is not None:  # no line of the .ipynb file is the cell's: its place is said
            properties = {
                "file": relative(path, cwd),
                "line": 1,
                "col": 1,
                "title": f"{f.code} {f.kind}",
            }
            message = f"{f.place}: {message}"
        lines.append(command(LEVEL.get(str(f.severity), "error"), properties, message))
    for path, reason in report.skipped:
        properties = {"file": relative(path, cwd), "title": "evalsubmit skipped"}
        lines.append(command("warning", properties, f"skipped, not checked: {reason}"))
    lines += [command("notice", {"title": "evalsubmit"}, note) for note in report.notes]
    return "".join(f"{line}\n" for line in lines)
