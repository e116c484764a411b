"""``evalsubmit check --python`` (and ``VIRTUAL_ENV``) as CI runs it (a subprocess; the other
cases in-process): imports from the environment's installed packages are followed, another SDK
version is noted (ES111 and a summary line) without failing the run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from evalsubmit.cli import main
from evalsubmit.sdk.version import SDK_VERSION
from fake_env import JOB, FakeEnv, sdk_env

NOTE = f"rules are for nemo-platform {SDK_VERSION}; 0.7.1 is installed: results may differ"


def evalsubmit(*argv: str, virtual_env: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}
    if virtual_env is not None:
        env["VIRTUAL_ENV"] = str(virtual_env)
    return subprocess.run(
        [sys.executable, "-m", "evalsubmit.cli", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        check=False,
    )


def workspace(tmp_path: Path) -> Path:
    ws = tmp_path / "ws"
    ws.mkdir()
    (ws / "job.py").write_text(JOB)
    return ws


def test_python_option_follows_installed_packages_and_notes_the_sdk(
    installed_env: FakeEnv, tmp_path: Path
) -> None:
    ws = workspace(tmp_path)
    done = evalsubmit("check", "--python", str(installed_env.python), str(ws))
    lines = done.stdout.splitlines()
    assert done.returncode == 1, done.stderr
    assert lines[0] == f"{ws / 'job.py'}:1:1: ES111 {NOTE}"
    assert lines[1].startswith(f"{ws / 'job.py'}:6:55: ES106 HarborAgentTaskRunner")
    assert lines[2:] == ["Found 2 problems in 1 file.", f"Note: {NOTE}."]
    assert installed_env.fired() == []


def test_the_active_virtualenv_is_the_default(
    installed_env: FakeEnv, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = workspace(tmp_path)
    done = evalsubmit("check", "--format", "json", str(ws), virtual_env=installed_env.root / "venv")
    codes = [f["code"] for f in json.loads(done.stdout)["findings"]]
    assert codes == ["ES111", "ES106"]
    # without it, the interpreter running evalsubmit: no teamlib there, nothing to report
    assert run(capsys, "check", str(ws)) == (0, "All checks passed (1 file).\n")


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().out


def test_an_sdk_note_alone_does_not_fail_the_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = workspace(tmp_path)
    python = sdk_env(tmp_path / "venv", nemo_platform="0.7.1")
    code, out = run(capsys, "check", "--python", str(tmp_path / "venv"), str(ws))
    assert code == 0 and out.endswith(f"Note: {NOTE}.\n")
    clean = (0, "All checks passed (1 file).\n")
    assert run(capsys, "check", "--python", str(python), "--ignore", "ES111", str(ws)) == clean
    same = sdk_env(tmp_path / "same", nemo_platform=SDK_VERSION)
    assert run(capsys, "check", "--python", str(same), str(ws)) == clean


def test_a_missing_interpreter_is_a_usage_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    ws = workspace(tmp_path)
    assert main(["check", "--python", str(tmp_path / "nope"), str(ws)]) == 2
    assert "no Python interpreter" in capsys.readouterr().err
