"""Where ``evalsubmit check`` reads and writes: ``--stdin-filename PATH -`` (checked as if at
PATH, so sibling imports resolve from there; ``--fix`` writes the fixed source to stdout),
``--output-file``, ``--exit-zero``; and the console script's GitHub output."""

from __future__ import annotations

import codecs
import io
from pathlib import Path

import pytest

from cli_project import IMPORTS, console, make_project
from evalsubmit.cli import main

REPO = Path(__file__).resolve().parents[2]
WEEKLY = (
    IMPORTS
    + """\
from jobs.runners import make_runner

client = NeMoPlatform(workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/weekly"), target=make_runner)
"""
)
ES104 = (
    "ES104 `target=` must be an agent runner for a taskset run, got function: "
    "pass an agent runner such as `GymAgentTaskRunner(config=...)`"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "team")
    monkeypatch.chdir(root)
    return root


def feed(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


def test_stdin_is_checked_as_if_at_its_filename(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    feed(monkeypatch, WEEKLY.encode())
    code = main(["check", "--stdin-filename", "jobs/weekly.py", "-"])
    out = capsys.readouterr().out
    # `make_runner` is read from the sibling module jobs/runners.py: passing the function
    # itself, not a runner, is found only because the import resolved next to the name.
    assert code == 1
    assert out == f"jobs/weekly.py:8:56: {ES104}\nFound 1 problem in 1 file.\n"
    assert not (project / "jobs" / "weekly.py").exists()
    feed(monkeypatch, WEEKLY.encode())
    (project.parent / "elsewhere").mkdir()
    code = main(["check", "--stdin-filename", "../elsewhere/weekly.py", "-"])
    assert code == 0  # no jobs/ package next to it: the import is unknown, never guessed


def test_stdin_fix_writes_the_fixed_source_to_stdout(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsysbinary: pytest.CaptureFixture[bytes]
) -> None:
    source = WEEKLY.replace(
        "target=make_runner)",
        'target=make_runner("w"), config=None,\n    prompt_template="{{item.q}}")',
    )
    feed(monkeypatch, codecs.BOM_UTF8 + source.replace("\n", "\r\n").encode())
    code = main(["check", "--fix", "--stdin-filename", "jobs/weekly.py", "-"])
    captured = capsysbinary.readouterr()
    fixed = source.replace(',\n    prompt_template="{{item.q}}")', ")")
    assert captured.out == codecs.BOM_UTF8 + fixed.replace("\n", "\r\n").encode()
    assert code == 0
    assert captured.err.decode() == "All checks passed (1 file).\nFixed 1 problem in 1 file.\n"
    assert not (project / "jobs" / "weekly.py").exists()


def test_stdin_needs_its_filename_and_the_filename_wins_over_paths(
    project: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    assert main(["check", "-"]) == 2
    assert "--stdin-filename PATH" in capsys.readouterr().err
    # as ruff: --stdin-filename reads stdin, whatever the paths, and says what it ignores
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"x = 1\n")))
    assert main(["check", "--stdin-filename", "jobs/x.py", "jobs"]) == 0
    captured = capsys.readouterr()
    assert "ignoring jobs in favor of standard input" in captured.err
    assert "All checks passed (1 file)" in captured.out


def test_output_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = project / "reports" / "ci" / "evalsubmit.xml.json"
    code = main(["check", "--output-format", "gitlab", "--output-file", str(target), "jobs"])
    captured = capsys.readouterr()
    assert code == 1 and captured.out == "" and captured.err == ""
    assert '"check_name": "ES109"' in target.read_text(encoding="utf-8")
    code = main(["check", "--output-file", "pyproject.toml/report.txt", "jobs"])
    assert code == 2 and "--output-file: cannot write pyproject.toml/report.txt" in (
        capsys.readouterr().err
    )


def test_exit_zero_still_fails_on_an_internal_error(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--exit-zero", "jobs"]) == 0
    assert "Found 4 problems in 3 files." in capsys.readouterr().out

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr("evalsubmit.analysis.analyze_source", broken)
    # the files did not change: without --no-cache their results would come from the cache
    assert main(["check", "--exit-zero", "--no-cache", "jobs"]) == 2
    assert "internal error: RuntimeError: boom" in capsys.readouterr().err


def test_the_console_script_speaks_github(project: Path) -> None:
    proc = console(project, "check", "--output-format", "github", "jobs/runners.py")
    assert proc.returncode == 1, proc.stderr
    assert proc.stdout == (
        "::error file=jobs/runners.py,line=12,col=19,endLine=12,endColumn=44,"
        "title=ES109 invalid-config-value::environment variable values must be strings: "
        "`env_vars['CUDA_VISIBLE_DEVICES']` is 0; write it as a string, e.g. str(...)\n"
    )
