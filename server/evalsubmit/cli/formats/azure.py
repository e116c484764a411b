"""``--output-format azure``: Azure Pipelines logging commands, one per finding, as ruff's
``azure`` format::

    ##vso[task.logissue type=error;sourcepath=jobs/a.py;linenumber=14;columnnumber=5;code=ES102;]...

Severity error -> ``error``; warning and information -> ``warning`` (the command knows no
other). A path that was not checked is a ``warning`` on that file. Values are escaped as the
Azure Pipelines task library does (``%`` as ``%AZP25``, CR, LF; in properties also ``;`` and
``]``), and any other control character is shown as a Python escape, so that a hostile file
name can neither end the command early nor drive the log viewer.
"""

from __future__ import annotations

from evalsubmit.cli.formats import Report, in_file

_TYPE = {"error": "error", "warning": "warning", "information": "warning"}


def escape_data(text: str) -> str:
    from evalsubmit.cli.output import shown

    return shown(text.replace("%", "%AZP25").replace("\r", "%0D").replace("\n", "%0A"))


def escape_property(text: str) -> str:
    return escape_data(text).replace(";", "%3B").replace("]", "%5D")


def command(properties: dict[str, object], message: str) -> str:
    props = "".join(f"{key}={escape_property(str(value))};" for key, value in properties.items())
    return f"##vso[task.logissue {props}]{escape_data(message)}"


def render(report: Report) -> str:
    lines = [
        command(
            {
                "type": _TYPE.get(str(f.severity), "error"),
                "sourcepath": path,
                "linenumber": span.line,
                "columnnumber": span.col + 1,
                "code": f.code,
            },
            message,
        )
        for path, f in report.findings
        for span, message in [in_file(f)]
    ]
    lines += [
        command(
            {"type": "warning", "sourcepath": path, "code": "skipped"},
            f"skipped, not checked: {reason}",
        )
        for path, reason in report.skipped
    ]
    return "".join(f"{line}\n" for line in lines)
