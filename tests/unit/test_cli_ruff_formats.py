"""The output formats ruff users know, beyond concise/full/json (``grouped``, ``json-lines``,
``junit``, ``pylint``, ``rdjson``, ``azure``): each run by the real console script on the team
project (with a file that cannot be decoded, so a skipped path is in every run), parsed with a
real parser, and its positions, codes, messages, fixes and documentation URLs compared with the
``json`` output of the same project: a format that dropped, moved or renamed a finding fails."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from cli_project import console, make_project

SKIPPED = "jobs/odd.py"
SKIP_REASON = "cannot decode it: unknown encoding: klingon"


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = make_project(tmp_path_factory.mktemp("ruff-formats") / "team")
    (root / SKIPPED).write_bytes(b"# coding: klingon\nx = 1\n")
    return root


@pytest.fixture(scope="module")
def reference(project: Path) -> list[dict[str, Any]]:
    """The findings of the ``json`` format: what every other format must show."""
    proc = console(project, "check", "--no-cache", "--output-format", "json", ".")
    assert proc.returncode == 1, proc.stderr
    data = json.loads(proc.stdout)
    assert data["skipped"] == [{"path": SKIPPED, "reason": SKIP_REASON}]
    findings: list[dict[str, Any]] = data["findings"]
    assert {f["code"] for f in findings} == {"ES101", "ES102", "ES103", "ES109"}
    return findings


def run(project: Path, fmt: str) -> tuple[str, str]:
    proc = console(project, "check", "--no-cache", "--output-format", fmt, ".")
    assert proc.returncode == 1, (fmt, proc.stderr)  # findings fail the run in every format
    return proc.stdout, proc.stderr


def positions(findings: list[dict[str, Any]]) -> list[tuple[str, int, int, str]]:
    return sorted((f["path"], f["line"], f["column"], f["code"]) for f in findings)


def test_json_carries_each_rules_url_and_ruffs_fix(
    project: Path, reference: list[dict[str, Any]]
) -> None:
    for finding in reference:
        code, kind = finding["code"], finding["kind"]
        assert finding["url"].endswith(f"/docs/rules.md#{code.lower()}-{kind}")
    docs = (Path(__file__).resolve().parents[2] / "docs" / "rules.md").read_text("utf-8")
    for finding in reference:  # the anchor is a heading of docs/rules.md
        assert f"\n## {finding['code']} {finding['kind']}\n" in docs
    by_code = {f["code"]: f for f in reference}
    assert by_code["ES103"]["fix"] is None
    assert by_code["ES101"]["fix"]["applicability"] == "unsafe"
    quote = by_code["ES109"]["fix"]
    assert quote["applicability"] == "safe" and quote["message"] == 'Quote it: "0"'
    assert quote["edits"] == [
        {
            "content": '"0"',
            "location": {"row": 12, "column": 43},
            "end_location": {"row": 12, "column": 44},
        }
    ]


def test_json_fix_edits_are_what_fix_writes(project: Path, tmp_path: Path) -> None:
    """Applying a file's JSON edits by hand gives the file ``--fix`` writes (one fix each)."""
    copy = make_project(tmp_path / "copy")
    data = json.loads(console(copy, "check", "--no-cache", "--output-format", "json", ".").stdout)
    runners = copy / "jobs" / "runners.py"
    lines = runners.read_text("utf-8").splitlines(keepends=True)
    (finding,) = [f for f in data["findings"] if f["path"] == "jobs/runners.py"]
    for edit in sorted(finding["fix"]["edits"], key=lambda e: e["location"]["row"], reverse=True):
        start, end = edit["location"], edit["end_location"]
        assert start["row"] == end["row"]  # this fix edits one line
        line = lines[start["row"] - 1]
        line = line[: start["column"] - 1] + edit["content"] + line[end["column"] - 1 :]
        lines[start["row"] - 1] = line
    by_hand = "".join(lines)
    assert console(copy, "check", "--no-cache", "--fix", "jobs/runners.py").returncode == 0
    assert runners.read_text("utf-8") == by_hand != (project / "jobs" / "runners.py").read_text()


def test_json_lines_is_one_json_finding_a_line(
    project: Path, reference: list[dict[str, Any]]
) -> None:
    out, err = run(project, "json-lines")
    assert [json.loads(line) for line in out.splitlines()] == reference
    assert f"{SKIPPED}: warning: skipped: {SKIP_REASON}" in err  # no place in the lines


def test_junit_is_xml_with_a_failing_case_per_finding(
    project: Path, reference: list[dict[str, Any]]
) -> None:
    out, _ = run(project, "junit")
    assert out.startswith('<?xml version="1.0" encoding="UTF-8"?>\n')
    root = ET.fromstring(out)
    assert root.tag == "testsuites" and root.get("name") == "evalsubmit"
    assert (root.get("tests"), root.get("failures")) == (
        str(len(reference) + 1),
        str(len(reference)),
    )
    found = []
    skipped = []
    for suite in root.iter("testsuite"):
        assert suite.get("package") == "org.evalsubmit"
        for case in suite.iter("testcase"):
            failure = case.find("failure")
            if failure is None:
                skip = case.find("skipped")
                assert skip is not None
                skipped.append((suite.get("name"), skip.get("message")))
                continue
            code = case.get("name", "").removeprefix("org.evalsubmit.")
            line, column = int(case.get("line", "0")), int(case.get("column", "0"))
            found.append((suite.get("name"), line, column, code))
            assert case.get("classname") == str(suite.get("name")).removesuffix(".py")
            message = failure.get("message")
            expected = next(f for f in reference if (f["line"], f["code"]) == (line, code))
            assert message == expected["message"]
            assert failure.text == f"line {line}, col {column}, {message}"
            severity = case.find("properties/property[@name='severity']")
            assert severity is not None and severity.get("value") == expected["severity"]
    assert sorted(found) == positions(reference)
    assert skipped == [(SKIPPED, f"skipped, not checked: {SKIP_REASON}")]


def test_junit_without_findings_is_one_passing_case(tmp_path: Path) -> None:
    (tmp_path / "job.py").write_text("from nemo_platform import NeMoPlatform\n", "utf-8")
    proc = console(tmp_path, "check", "--no-cache", "--output-format", "junit", "job.py")
    assert proc.returncode == 0, proc.stderr
    root = ET.fromstring(proc.stdout)
    (case,) = root.iter("testcase")
    assert case.get("name") == "No errors found" and len(case) == 0
    assert (root.get("tests"), root.get("failures")) == ("1", "0")


def test_rdjson_is_reviewdogs_format(project: Path, reference: list[dict[str, Any]]) -> None:
    out, err = run(project, "rdjson")
    data = json.loads(out)
    assert data["source"]["name"] == "evalsubmit" and data["severity"] == "WARNING"
    by_place = {(f["path"], f["line"], f["column"], f["code"]): f for f in reference}
    seen = []
    for diagnostic in data["diagnostics"]:
        location, start = diagnostic["location"], diagnostic["location"]["range"]["start"]
        key = (location["path"], start["line"], start["column"], diagnostic["code"]["value"])
        expected = by_place[key]
        seen.append(key)
        end = location["range"]["end"]
        assert (end["line"], end["column"]) == (expected["end_line"], expected["end_column"])
        assert diagnostic["code"]["url"] == expected["url"]
        assert diagnostic["message"] == expected["message"]
        assert diagnostic["severity"] == expected["severity"].upper()
        fix = expected["fix"]
        suggestions = [
            (
                (s["range"]["start"]["line"], s["range"]["start"]["column"]),
                (s["range"]["end"]["line"], s["range"]["end"]["column"]),
                s["text"],
            )
            for s in diagnostic.get("suggestions", [])
        ]
        assert suggestions == [
            (
                (e["location"]["row"], e["location"]["column"]),
                (e["end_location"]["row"], e["end_location"]["column"]),
                e["content"],
            )
            for e in (fix["edits"] if fix else [])
        ]
    assert sorted(seen) == positions(reference)
    assert f"{SKIPPED}: warning: skipped: {SKIP_REASON}" in err


PYLINT = re.compile(r"(?P<path>[^:]+):(?P<line>\d+): \[(?P<code>ES\d{3})\] (?P<message>.*)")


def test_pylint_is_path_line_code_message(project: Path, reference: list[dict[str, Any]]) -> None:
    out, err = run(project, "pylint")
    parsed = [PYLINT.fullmatch(line) for line in out.splitlines()]
    assert all(parsed), out
    got = sorted(
        (m["path"], int(m["line"]), m["code"], m["message"]) for m in parsed if m is not None
    )
    assert got == sorted((f["path"], f["line"], f["code"], f["message"]) for f in reference)
    assert f"{SKIPPED}: warning: skipped: {SKIP_REASON}" in err


AZURE = re.compile(r"##vso\[task\.logissue (?P<props>(?:[a-z]+=[^;\]]*;)+)\](?P<message>.*)")


def test_azure_is_a_logging_command_per_finding(
    project: Path, reference: list[dict[str, Any]]
) -> None:
    out, _ = run(project, "azure")
    got = []
    warnings = []
    for line in out.splitlines():
        match = AZURE.fullmatch(line)
        assert match, line
        props = dict(item.split("=", 1) for item in match["props"].rstrip(";").split(";"))
        if props["code"] == "skipped":
            warnings.append((props["type"], props["sourcepath"], match["message"]))
            continue
        assert props["type"] == "error"  # every finding of the project is an error
        got.append(
            (
                props["sourcepath"],
                int(props["linenumber"]),
                int(props["columnnumber"]),
                props["code"],
            )
        )
    assert sorted(got) == positions(reference)
    assert warnings == [("warning", SKIPPED, f"skipped, not checked: {SKIP_REASON}")]


def test_azure_escapes_what_would_end_the_command() -> None:
    from evalsubmit.cli.formats.azure import command

    line = command({"sourcepath": "a;b].py"}, "50% done\nnext ##vso[task.complete]")
    assert (
        line
        == "##vso[task.logissue sourcepath=a%3Bb%5D.py;]50%AZP25 done%0Anext ##vso[task.complete]"
    )
    assert "\n" not in command({"code": "x"}, "a\x1b[2Jb")


def test_grouped_lists_findings_under_their_file(
    project: Path, reference: list[dict[str, Any]]
) -> None:
    out, _ = run(project, "grouped")
    got = []
    fixable = set()
    path = None
    lines = out.splitlines()
    for line in lines:
        if line.endswith(":") and not line.startswith(" "):
            path = line[:-1]
            continue
        match = re.fullmatch(r"  +(\d+):(\d+) +(ES\d{3}) (\[\*\] )?(.*)", line)
        if match is None:
            continue
        got.append((path, int(match[1]), int(match[2]), match[3]))
        if match[4]:
            fixable.add((path, int(match[1]), match[3]))
    assert sorted(got) == positions(reference)
    safe = {
        (f["path"], f["line"], f["code"])
        for f in reference
        if f["fix"] and f["fix"]["applicability"] == "safe"
    }
    assert fixable == safe and safe
    assert f"{SKIPPED}: warning: skipped: {SKIP_REASON}" in lines
    assert lines[-2:] == [
        "Found 5 problems in 4 files; 1 skipped, not checked (see the warnings above).",
        "[*] 3 fixable with the `--fix` option "
        "(1 hidden fix can be enabled with the `--unsafe-fixes` option).",
    ]
    nightly = lines.index("jobs/nightly.py:")
    assert lines[nightly + 1 : nightly + 3] == [  # columns padded to line up, as ruff's
        "  14:5  ES102 [*] " + next(f["message"] for f in reference if f["line"] == 14),
        "  16:18 ES101 " + next(f["message"] for f in reference if f["line"] == 16),
    ]
