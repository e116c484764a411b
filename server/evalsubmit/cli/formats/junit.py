"""``--output-format junit``: JUnit XML, as ruff's ``junit`` format: a ``testsuite`` per file
with findings, a failing ``testcase`` (``org.evalsubmit.ES102``, with ``line`` and ``column``
attributes and a ``severity`` property) per finding; a run without findings is one passing
``No errors found`` case. A path that was not checked is a ``skipped`` test case in a suite of
its own (JUnit's own word for it), so a CI test report never shows a skipped file as passed.

Built with :mod:`xml.etree.ElementTree` (escaping is the library's); characters XML 1.0 cannot
hold at all (control characters) are shown as Python escapes first.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

from evalsubmit.cli.formats import Report, in_file
from evalsubmit.core.findings import Finding

PROGRAM = "evalsubmit"
PACKAGE = f"org.{PROGRAM}"


def _text(value: object) -> str:
    from evalsubmit.cli.output import shown

    return shown(value)


def render(report: Report) -> str:
    by_file: dict[Path, list[Finding]] = {}
    for path, finding in report.findings:
        by_file.setdefault(path, []).append(finding)
    root = ET.Element("testsuites", name=PROGRAM)
    if not report.findings:
        suite = _suite(root, PROGRAM, failures=0, tests=1)
        ET.SubElement(suite, "testcase", name="No errors found", classname=PROGRAM)
    for path in sorted(by_file, key=str):
        _file_suite(root, path, by_file[path])
    for path, reason in report.skipped:
        suite = _suite(root, _text(path), failures=0, tests=1, skipped=1)
        case = ET.SubElement(
            suite, "testcase", name=f"{PACKAGE}.skipped", classname=_classname(path)
        )
        ET.SubElement(case, "skipped", message=_text(f"skipped, not checked: {reason}"))
    failures = len(report.findings)
    tests = failures + len(report.skipped) + (0 if report.findings else 1)
    root.set("tests", str(tests))
    root.set("failures", str(failures))
    root.set("errors", "0")
    ET.indent(root, space="    ")
    body = ET.tostring(root, encoding="unicode")
    return f'<?xml version="1.0" encoding="UTF-8"?>\n{body}\n'


def _suite(
    root: ET.Element, name: str, *, failures: int, tests: int, skipped: int = 0
) -> ET.Element:
    attributes = {
        "name": name,
        "tests": str(tests),
        "disabled": "0",
        "errors": "0",
        "failures": str(failures),
    }
    if skipped:
        attributes["skipped"] = str(skipped)
    attributes["package"] = PACKAGE
    return ET.SubElement(root, "testsuite", attributes)


def _file_suite(root: ET.Element, path: Path, findings: Sequence[Finding]) -> None:
    suite = _suite(root, _text(path), failures=len(findings), tests=len(findings))
    for f in findings:
        span, message = in_file(f)
        line, column = span.line, span.col + 1
        case = ET.SubElement(
            suite,
            "testcase",
            name=f"{PACKAGE}.{f.code}",
            classname=_classname(path),
            line=str(line),
            column=str(column),
        )
        properties = ET.SubElement(case, "properties")
        ET.SubElement(properties, "property", name="severity", value=str(f.severity))
        failure = ET.SubElement(case, "failure", message=_text(message))
        failure.text = _text(f"line {line}, col {column}, {message}")


def _classname(path: Path) -> str:
    """The path without its suffix, as ruff names a test case's class."""
    return _text(path.with_suffix("") if path.suffix else path)
