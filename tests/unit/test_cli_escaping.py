"""Hostile file and folder names in every output: SARIF URIs that resolve to the file itself,
GitHub workflow commands without raw control characters, and no ESC/OSC sequence from a name
reaching the terminal (configuration errors, ``--diff`` headers, ``--fix`` warnings)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import unquote, urljoin

import pytest

from cli_project import NIGHTLY, RUNNERS, make_project, run_check

ESC_NAME = "\x1b]0;pwned\x07\x1b[2Jjob.py"
"""A title-setting OSC sequence and a screen clear."""
BAD = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
client = NeMoPlatform(workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa team/x"), target=None, metric=1)
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "team")
    monkeypatch.chdir(root)
    return root


run = run_check


def _inert(text: str) -> bool:
    return "\x1b" not in text and "\x07" not in text


@pytest.mark.parametrize("name", ["a#b.py", "x%41.py", "a:b.py", "my job.py", "q?x.py", "é.py"])
def test_sarif_uris_resolve_to_the_file_itself(
    project: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    (project / "jobs" / name).write_text(BAD, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--output-format", "sarif", "jobs")
    assert code == 1
    uris = {
        location["physicalLocation"]["artifactLocation"]["uri"]
        for result in json.loads(out)["runs"][0]["results"]
        for location in result["locations"]
    }
    base = "file:///repo/"
    resolved = {unquote(urljoin(base, uri)) for uri in uris}
    assert f"file:///repo/jobs/{name}" in resolved, uris
    # a relative reference: no scheme, no fragment, no query
    assert all(":" not in uri and "#" not in uri and "?" not in uri for uri in uris), uris


def test_sarif_uri_of_a_first_segment_with_a_colon_is_no_scheme(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "a:b.py").write_text(BAD, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--output-format", "sarif", "a:b.py")
    assert code == 1
    uri = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"
    ]["uri"]
    assert unquote(urljoin("file:///repo/", uri)) == "file:///repo/a:b.py"


def test_sarif_uri_of_an_absolute_path_is_a_file_uri(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = project / "my job#1.py"
    path.write_text(BAD, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--output-format", "sarif", str(path))
    assert code == 1
    uri = json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"
    ]["uri"]
    assert uri == path.as_uri()


def test_sarif_skipped_paths_are_encoded_too(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.mkfifo(project / "big#1.py")  # never read: skipped
    code, out, _ = run(capsys, "check", "--output-format", "sarif", "big#1.py")
    notifications = json.loads(out)["runs"][0]["invocations"][0]["toolExecutionNotifications"]
    uris = [n["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for n in notifications]
    assert uris == ["big%231.py"], (code, out)


def test_github_commands_carry_no_control_character(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "jobs" / ESC_NAME).write_text(BAD, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--output-format", "github", "jobs")
    assert code == 1
    lines = [line for line in out.splitlines() if "file=jobs/" in line and "pwned" in line]
    assert lines, out
    assert all(_inert(line) for line in lines), lines
    assert all("\\x1b" in line for line in lines)  # shown, not dropped


def test_a_configuration_error_under_a_hostile_folder_name_is_inert(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "\x1b]0;pwned\x07team"
    folder.mkdir()
    (folder / "pyproject.toml").write_text(
        '[tool.evalsubmit]\nselect = "ES1\x1b[2J"\n', encoding="utf-8"
    )
    (folder / "job.py").write_text(BAD, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "check", folder.name)
    assert code == 2
    assert "invalid configuration" in err
    assert _inert(err), err


def test_diff_headers_are_inert(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "jobs" / ESC_NAME).write_text(RUNNERS, encoding="utf-8")
    code, out, _ = run(capsys, "check", "--diff", "jobs")
    assert code == 1
    headers = [line for line in out.splitlines() if line.startswith(("--- ", "+++ "))]
    assert any("pwned" in line for line in headers), out
    assert all(_inert(line) for line in headers), headers


def test_fix_warnings_are_inert(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "jobs" / ESC_NAME).write_text(NIGHTLY + "def half_written(:\n", encoding="utf-8")
    code, _, err = run(capsys, "check", "--fix", "jobs")
    assert code == 1
    assert "not fixed, left as it was" in err
    assert _inert(err), err


def test_skipped_paths_on_stderr_are_inert(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.mkfifo(project / "jobs" / ESC_NAME)  # never read: skipped
    _, _, err = run(capsys, "check", "--statistics", "--output-format", "json", "jobs")
    assert "skipped" in err
    assert _inert(err), err
