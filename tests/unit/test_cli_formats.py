"""``evalsubmit check --output-format ...`` and ``--statistics`` on a small team project: each
format's exact text for a known finding (written by hand), the skipped paths in every format,
colour only when asked for."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import pytest

from cli_project import make_project, run_check
from evalsubmit.cli.formats.color import use_color
from evalsubmit.cli.formats.github import command

ES102_MESSAGE = (
    "`config=` is a row-evaluation option; a taskset run is configured by its runner, "
    "so the SDK refuses it: remove `config=`"
)
ES101_MESSAGE = (
    "submit() takes either `tasks=` + `target=` or `metric=` + `dataset=`, not both: "
    "remove `metric=` for a taskset run, or `tasks=` for a row evaluation"
)
SKIP_REASON = "cannot decode it: unknown encoding: klingon"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The project, as the current folder (CI runs at the repository's root)."""
    root = make_project(tmp_path / "team")
    monkeypatch.chdir(root)
    for name in ("NO_COLOR", "FORCE_COLOR", "CI_PROJECT_DIR", "TERM"):
        monkeypatch.delenv(name, raising=False)
    return root


run = run_check


def add_unreadable(root: Path) -> None:
    (root / "jobs" / "odd.py").write_bytes(b"# coding: klingon\nx = 1\n")


def test_concise_is_the_default_and_marks_what_fix_fixes(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "check", "jobs/nightly.py")
    assert code == 1
    # ES102's fix is safe ([*]), ES101's unsafe: hidden, counted in ruff's last line
    assert out == (
        f"jobs/nightly.py:14:5: ES102 [*] {ES102_MESSAGE}\n"
        f"jobs/nightly.py:16:18: ES101 {ES101_MESSAGE}\n"
        "Found 2 problems in 1 file.\n"
        "[*] 1 fixable with the `--fix` option "
        "(1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )
    assert run(capsys, "check", "--output-format", "concise", "jobs/nightly.py")[1] == out
    # --unsafe-fixes: the unsafe fix counts as fixable, and is marked
    unsafe = run(capsys, "check", "--unsafe-fixes", "jobs/nightly.py")[1]
    assert unsafe == (
        f"jobs/nightly.py:14:5: ES102 [*] {ES102_MESSAGE}\n"
        f"jobs/nightly.py:16:18: ES101 [*] {ES101_MESSAGE}\n"
        "Found 2 problems in 1 file.\n"
        "[*] 2 fixable with the `--fix` option.\n"
    )
    # a finding without a fix (ES103) is never marked, and adds no fix line
    tests = run(capsys, "check", "tests/test_nightly.py")[1]
    assert "[*]" not in tests and "fix" not in tests.splitlines()[-1]


def test_full_shows_a_code_frame(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--output-format", "full", "jobs/nightly.py")
    assert code == 1
    call = 'client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=make_runner("b"), '
    assert out == (
        f"jobs/nightly.py:14:5: ES102 [*] {ES102_MESSAGE}\n"
        "   |\n"
        '12 |     tasks=TasksetRef("qa/nightly"),\n'
        '13 |     target=make_runner("simple_agent"),\n'
        "14 |     config=RunConfig(parallelism=16),\n"
        "   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ ES102\n"
        "15 | )\n"
        f"16 | {call}metric=metric)\n"
        "   |\n"
        "   = help: Remove `config=`\n"
        "\n"
        # ES101's fix is unsafe: no [*], but the help still says what it would do
        f"jobs/nightly.py:16:18: ES101 {ES101_MESSAGE}\n"
        "   |\n"
        "14 |     config=RunConfig(parallelism=16),\n"
        "15 | )\n"
        f"16 | {call}metric=metric)\n"
        "   |                  ^^^^^^ ES101\n"
        "   |\n"
        "   = help: Remove `metric=`\n"
        "\n"
        "Found 2 problems in 1 file.\n"
        "[*] 1 fixable with the `--fix` option "
        "(1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )


def test_full_colours_only_when_forced_or_a_terminal(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    plain = run(capsys, "check", "--output-format", "full", "jobs/runners.py")[1]
    assert "\x1b[" not in plain  # captured output is not a terminal
    monkeypatch.setenv("FORCE_COLOR", "1")
    coloured = run(capsys, "check", "--output-format", "full", "jobs/runners.py")[1]
    lines = coloured.splitlines()
    assert lines[0].startswith("\x1b[1mjobs/runners.py\x1b[0m:12:19: \x1b[1;31mES109\x1b[0m")
    assert "\x1b[1;36m [*]\x1b[0m" in lines[0]
    carets = next(line for line in lines if "^" in line)
    # gutter bar in blue, underline and code in the error colour, after 18 columns of indent
    assert carets == "   \x1b[1;34m|\x1b[0m " + " " * 18 + "\x1b[1;31m" + "^" * 25 + " ES109\x1b[0m"
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured) == plain  # the same text, only coloured
    monkeypatch.setenv("NO_COLOR", "1")  # NO_COLOR wins, as in CPython
    assert run(capsys, "check", "--output-format", "full", "jobs/runners.py")[1] == plain


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_colour_decision() -> None:
    assert use_color(_Terminal(), {}) is True
    assert use_color(io.StringIO(), {}) is False
    assert use_color(_Terminal(), {"NO_COLOR": "1"}) is False
    assert use_color(_Terminal(), {"NO_COLOR": ""}) is True  # no-color.org: empty is unset
    assert use_color(io.StringIO(), {"FORCE_COLOR": "1"}) is True
    assert use_color(None, {"FORCE_COLOR": "1"}) is True  # --output-file, forced
    assert use_color(_Terminal(), {"TERM": "dumb"}) is False


def test_full_frame_is_aligned_and_never_drives_the_terminal(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A tab before the call, an East Asian wide character and an escape sequence in a comment.
    source = (project / "jobs" / "nightly.py").read_text(encoding="utf-8")
    source = source.replace(
        "client.evaluator.submit(tasks", "\t# 夜間 \x1b[2J\nif True:\tclient.evaluator.submit(tasks"
    )
    (project / "jobs" / "nightly.py").write_text(source, encoding="utf-8")
    out = run(capsys, "check", "--output-format", "full", "jobs/nightly.py")[1]
    assert "\x1b" not in out
    assert "    # 夜間 ␛[2J" in out  # tab to 4 columns, ESC as its control picture
    lines = out.splitlines()
    code_line = next(
        i for i, line in enumerate(lines) if line.startswith("17 | if True:    client")
    )
    assert (
        lines[code_line + 1]
        == "   | " + " " * len("if True:    client.evaluator.") + "^^^^^^ ES101"
    )


def test_github_workflow_commands(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add_unreadable(project)
    code, out, _ = run(capsys, "check", "--output-format", "github", "jobs")
    assert code == 1
    lines = out.splitlines()
    assert (
        "::error file=jobs/nightly.py,line=14,col=5,endLine=14,endColumn=37,"
        f"title=ES102 row-option-on-taskset::{ES102_MESSAGE}"
    ) in lines
    assert (
        f"::warning file=jobs/odd.py,title=evalsubmit skipped::skipped, not checked: {SKIP_REASON}"
    ) in lines
    assert len([line for line in lines if line.startswith("::error ")]) == 4
    assert all(line.startswith("::") for line in lines)  # nothing else: no summary line


def test_github_escapes_like_the_actions_toolkit() -> None:
    properties = {"file": "odd,name:1.py", "line": 3, "title": "ES108 bad-taskset-ref"}
    assert command("error", properties, "100% sure\r\nsecond line") == (
        "::error file=odd%2Cname%3A1.py,line=3,title=ES108 bad-taskset-ref::"
        "100%25 sure%0D%0Asecond line"
    )
    assert command("notice", {}, "a: b, c") == "::notice::a: b, c"


def _gitlab(capsys: pytest.CaptureFixture[str], *paths: str) -> list[dict[str, object]]:
    code, out, _ = run(capsys, "check", "--output-format", "gitlab", *paths)
    assert code == 1
    issues = json.loads(out)
    assert isinstance(issues, list)
    return issues


def test_gitlab_code_quality_report(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add_unreadable(project)
    issues = _gitlab(capsys, ".")
    for issue in issues:  # what GitLab requires of every issue
        assert isinstance(issue["description"], str) and issue["description"]
        assert isinstance(issue["check_name"], str)
        assert re.fullmatch(r"[0-9a-f]{64}", str(issue["fingerprint"]))
        assert issue["severity"] in {"info", "minor", "major", "critical", "blocker"}
        location = issue["location"]
        assert isinstance(location, dict) and not Path(location["path"]).is_absolute()
        assert isinstance(location["lines"]["begin"], int)
    assert len({issue["fingerprint"] for issue in issues}) == len(issues)
    by_code = {(i["check_name"], i["location"]["path"]): i for i in issues}  # type: ignore[index]
    es102 = by_code[("ES102", "jobs/nightly.py")]
    assert es102["description"] == f"ES102: {ES102_MESSAGE}"
    assert es102["severity"] == "critical" and es102["categories"] == ["Bug Risk"]
    assert es102["location"] == {"path": "jobs/nightly.py", "lines": {"begin": 14, "end": 14}}
    skipped = by_code[("evalsubmit/skipped", "jobs/odd.py")]
    assert skipped["severity"] == "info"
    assert skipped["description"] == f"skipped, not checked: {SKIP_REASON}"


def test_gitlab_fingerprints_survive_lines_added_above(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    before = {i["check_name"]: i for i in _gitlab(capsys, "jobs/nightly.py")}
    path = project / "jobs" / "nightly.py"
    path.write_text("# Nightly jobs.\n# Owner: qa.\n\n" + path.read_text(encoding="utf-8"))
    # run from elsewhere with absolute paths: CI_PROJECT_DIR still makes them relative
    monkeypatch.setenv("CI_PROJECT_DIR", str(project))
    monkeypatch.chdir(project.parent)
    after = {i["check_name"]: i for i in _gitlab(capsys, str(path))}
    for code in ("ES101", "ES102"):
        assert after[code]["fingerprint"] == before[code]["fingerprint"]
        assert after[code]["location"]["path"] == "jobs/nightly.py"  # type: ignore[index]
        assert after[code]["location"]["lines"]["begin"] == (  # type: ignore[index]
            before[code]["location"]["lines"]["begin"] + 3  # type: ignore[index]
        )
    assert before["ES101"]["fingerprint"] != before["ES102"]["fingerprint"]


@pytest.mark.parametrize("fmt", ["concise", "full", "json", "sarif", "github", "gitlab"])
def test_every_format_lists_the_skipped(
    project: Path, capsys: pytest.CaptureFixture[str], fmt: str
) -> None:
    add_unreadable(project)
    code, out, _ = run(capsys, "check", "--output-format", fmt, "jobs/odd.py", "jobs/runners.py")
    assert code == 1
    assert "odd.py" in out and SKIP_REASON in out


def test_json_and_sarif_are_the_contract_and_format_is_a_deprecated_alias(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, new, err = run(capsys, "check", "--output-format", "json", "jobs")
    assert code == 1 and err == ""
    data = json.loads(new)
    assert data["version"] == 1 and len(data["findings"]) == 4
    code, old, err = run(capsys, "check", "--format", "json", "jobs")
    assert code == 1 and old == new
    assert "--format is deprecated; use --output-format json" in err
    assert run(capsys, "check", "--format", "text", "jobs")[1] == run(capsys, "check", "jobs")[1]
    sarif = json.loads(run(capsys, "check", "--output-format", "sarif", "jobs")[1])
    assert len(sarif["runs"][0]["results"]) == 4
    code, _, err = run(capsys, "check", "--format", "json", "--output-format", "sarif", "jobs")
    assert code == 2 and "contradicts" in err


def test_statistics(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--statistics", ".")
    assert code == 1
    assert out == (
        "2\tES102\t[*] row-option-on-taskset\n"
        "1\tES101\t[ ] mixed-shape\n"
        "1\tES103\t[ ] no-shape\n"
        "1\tES109\t[*] invalid-config-value\n"
        "Found 5 problems in 4 files.\n"
        "[*] 3 fixable with the `--fix` option "
        "(1 hidden fix can be enabled with the `--unsafe-fixes` option).\n"
    )
    unsafe = run(capsys, "check", "--statistics", "--unsafe-fixes", ".")[1]
    assert "1\tES101\t[*] mixed-shape\n" in unsafe


def test_statistics_as_json(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    add_unreadable(project)
    code, out, err = run(capsys, "check", "--statistics", "--output-format", "json", ".")
    assert code == 1
    assert json.loads(out) == [
        {
            "code": "ES102",
            "name": "row-option-on-taskset",
            "title": "row-only option on a taskset submission",
            "count": 2,
            "fixable": True,
        },
        {
            "code": "ES101",
            "name": "mixed-shape",
            "title": "submit() mixes the taskset and row shapes",
            "count": 1,
            "fixable": False,
        },
        {
            "code": "ES103",
            "name": "no-shape",
            "title": "submit() has neither shape",
            "count": 1,
            "fixable": False,
        },
        {
            "code": "ES109",
            "name": "invalid-config-value",
            "title": "invalid GymRuntimeConfig value",
            "count": 1,
            "fixable": True,
        },
    ]
    assert f"jobs/odd.py: warning: skipped: {SKIP_REASON}" in err  # a list holds no skips


def test_full_frames_of_multi_line_and_long_spans() -> None:
    from evalsubmit.cli.formats.color import Paint
    from evalsubmit.cli.formats.full import frame
    from evalsubmit.core.findings import Span

    call = ["x = 1", "job = submit(", "    tasks=a,", "    target=b,", ")", "y = 2", ""]
    lines, width = frame(call, Span(2, 6, 5, 1), "ES101", Paint(False))
    assert width == 1
    assert lines == [
        "  |",
        "1 | x = 1",
        "2 | job = submit(",
        "  |       ^^^^^^^",
        "3 |     tasks=a,",
        "  |     ^^^^^^^^",
        "4 |     target=b,",
        "  |     ^^^^^^^^^",
        "5 | )",
        "  | ^ ES101",
        "6 | y = 2",
        "  |",
    ]
    long = ["a = f(", *(f"    {i}," for i in range(12)), ")", ""]
    lines, _ = frame(long, Span(1, 4, 14, 1), "ES107", Paint(False))
    assert [line[:2] for line in lines if not line.startswith("   |")] == [
        " 1",
        " 2",
        " 3",
        "..",
        "12",
        "13",
        "14",
    ]  # the middle of a long span is elided
