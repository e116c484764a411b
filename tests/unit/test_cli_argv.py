"""File names never become options: ``evalsubmit check *.py`` in a folder holding a file named
``--python=run.py`` (the shell expands the glob into an option), abbreviations, and ``--``."""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import pytest

from cli_project import run_check

BAD = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
client = NeMoPlatform(workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa team/x"), target=None, metric=1)
"""


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.py").write_text(BAD, encoding="utf-8")
    return tmp_path


run = run_check


def _hostile_interpreter(folder: Path) -> Path:
    """``run.py``: a program that leaves a sentinel file when it is run (as an interpreter)."""
    sentinel = folder / "sentinel"
    script = folder / "run.py"
    script.write_text(
        f"#!{sys.executable}\nopen({str(sentinel)!r}, 'w').close()\n", encoding="utf-8"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    (folder / "--python=run.py").write_text(BAD, encoding="utf-8")
    return sentinel


def test_a_globbed_python_option_is_refused_and_runs_nothing(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sentinel = _hostile_interpreter(folder)
    # what `evalsubmit check *.py` becomes in a shell (the glob sorted, `-` first)
    code, out, err = run(capsys, "check", "--python=run.py", "bad.py", "run.py")
    assert code == 2
    assert not sentinel.exists()
    assert "`--python=run.py` is a file in this folder and also an option" in err
    assert "put `--` before file names" in err
    assert out == ""


@pytest.mark.parametrize("word", ["--exit-zero", "--statistics", "-h", "--help", "--no-cache"])
def test_a_globbed_flag_is_refused_rather_than_obeyed(
    folder: Path, capsys: pytest.CaptureFixture[str], word: str
) -> None:
    (folder / word).write_text(BAD, encoding="utf-8")
    code, _, err = run(capsys, "check", word, "bad.py")
    assert code == 2
    assert f"`{word}` is a file in this folder and also an option" in err


def test_a_globbed_output_file_writes_nothing(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    victim = folder / "victim.py"
    victim.write_text("precious = 1\n", encoding="utf-8")
    (folder / "--output-file=victim.py").write_text(BAD, encoding="utf-8")
    code, _, err = run(capsys, "check", "--output-file=victim.py", "bad.py", "victim.py")
    assert code == 2
    assert victim.read_text(encoding="utf-8") == "precious = 1\n"
    assert "--output-file=victim.py" in err


def test_a_globbed_fix_rewrites_nothing(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (folder / "--fix").write_text("", encoding="utf-8")
    before = (folder / "bad.py").read_text(encoding="utf-8")
    code, _, _ = run(capsys, "check", "--fix", "--unsafe-fixes", "bad.py")
    assert code == 2
    assert (folder / "bad.py").read_text(encoding="utf-8") == before


def test_a_link_named_like_an_option_is_refused_even_when_dangling(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    os.symlink("nowhere", folder / "--exit-zero")
    code, _, _ = run(capsys, "check", "--exit-zero", "bad.py")
    assert code == 2


def test_after_double_dash_every_word_is_a_file(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sentinel = _hostile_interpreter(folder)
    (folder / "--exit-zero").write_text(BAD, encoding="utf-8")
    argv = ("check", "--force-exclude", "--", "--exit-zero", "--python=run.py", "run.py")
    code, out, _ = run(capsys, *argv)
    assert code == 1
    assert not sentinel.exists()
    assert "--exit-zero:4:" in out
    assert "--python=run.py:4:" in out


def test_an_option_that_is_no_file_still_works(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "check", "--exit-zero", "bad.py")
    assert code == 0
    assert "bad.py:4:" in out


def test_an_option_value_is_never_taken_for_a_globbed_option(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # the value of --output-file is a file that exists: that is no option
    (folder / "report.txt").write_text("old\n", encoding="utf-8")
    code, _, _ = run(capsys, "check", "--output-file", "report.txt", "bad.py")
    assert code == 1
    assert "bad.py:4:" in (folder / "report.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("word", ["--exit-z", "--pyth=run.py", "--output=x.txt", "--outp"])
def test_abbreviated_options_are_not_accepted(
    folder: Path, capsys: pytest.CaptureFixture[str], word: str
) -> None:
    code, _, err = run(capsys, "check", word, "bad.py")
    assert code == 2
    assert "unrecognized arguments" in err or "invalid choice" in err or "expected" in err
    assert not (folder / "x.txt").exists()


def test_options_after_double_dash_are_reported_as_misplaced(
    folder: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # a pre-commit hook's `args:` come after its entry's `--`: say so rather than only
    # "no such file"
    code, _, err = run(capsys, "check", "--", "--output-format", "full", "bad.py")
    assert code == 2
    assert "no such file or directory: --output-format, full" in err
    assert "before `--`" in err


def test_stdin_after_double_dash(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    stream = io.TextIOWrapper(io.BytesIO(BAD.encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stream)
    code, out, _ = run(capsys, "check", "--stdin-filename", "job.py", "--", "-")
    assert code == 1
    assert "job.py:4:" in out
