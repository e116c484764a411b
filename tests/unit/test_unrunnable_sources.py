"""Files CPython refuses to run (UTF-16/UTF-32, a NUL byte, a coding cookie naming an encoding
that is not ASCII-compatible) are skipped with the reason, never "All checks passed": whether
or not their text names the SDK, the relevance scan must not count them as checked."""

from __future__ import annotations

import codecs
import json
import subprocess
import sys
from pathlib import Path

import pytest

from evalsubmit.cli import main
from evalsubmit.core.sourcefile import UnreadableSource, read_source

BAD = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
client = NeMoPlatform(workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa team/x"), target=None, metric=1)
"""
PLAIN = "x = 1\n"
UNRUNNABLE = {
    "utf-16-le": codecs.BOM_UTF16_LE + BAD.encode("utf-16-le"),
    "utf-16-be": codecs.BOM_UTF16_BE + BAD.encode("utf-16-be"),
    "utf-32-le": codecs.BOM_UTF32_LE + BAD.encode("utf-32-le"),
    "utf-32-be": codecs.BOM_UTF32_BE + BAD.encode("utf-32-be"),
    "utf-16-plain": codecs.BOM_UTF16_LE + PLAIN.encode("utf-16-le"),
    "nul": BAD.encode() + b"x = 1\x00\n",
    "nul-plain": b"x = 1\n\x00\n",
    "cookie-utf-16": b"# coding: utf-16\n" + PLAIN.encode(),
}
REASONS = {
    "utf-16-le": "UTF-16",
    "utf-16-be": "UTF-16",
    "utf-32-le": "UTF-32",
    "utf-32-be": "UTF-32",
    "utf-16-plain": "UTF-16",
    "nul": "NUL byte",
    "nul-plain": "NUL byte",
    "cookie-utf-16": "utf-16",
}


@pytest.mark.parametrize("kind", sorted(UNRUNNABLE))
def test_python_itself_refuses_them(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "job.py"
    path.write_bytes(UNRUNNABLE[kind])
    done = subprocess.run(
        [sys.executable, "-I", "-S", str(path)], capture_output=True, timeout=60, check=False
    )
    assert done.returncode != 0 and b"SyntaxError" in done.stderr


@pytest.mark.parametrize("kind", sorted(UNRUNNABLE))
def test_read_source_refuses_them_with_the_reason(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "job.py"
    path.write_bytes(UNRUNNABLE[kind])
    with pytest.raises(UnreadableSource, match=REASONS[kind]):
        read_source(path)


def test_utf8_and_latin1_still_read(tmp_path: Path) -> None:
    path = tmp_path / "job.py"
    path.write_bytes(b"# coding: latin-1\nx = '\xe9'\n")
    assert read_source(path).text.endswith("x = 'é'\n")


@pytest.mark.parametrize("kind", sorted(UNRUNNABLE))
@pytest.mark.parametrize("strict", [False, True])
def test_check_skips_them_never_all_checks_passed(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    strict: bool,
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "job.py").write_bytes(UNRUNNABLE[kind])
    code = main(["check", "--no-cache", *(["--strict"] if strict else []), "job.py"])
    out = capsys.readouterr().out
    assert "All checks passed" not in out
    assert "job.py: warning: skipped: " in out and REASONS[kind] in out, out
    assert "1 skipped" in out
    assert code == (1 if strict else 0)


def test_every_format_lists_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "job.py").write_bytes(UNRUNNABLE["utf-16-plain"])
    main(["check", "--no-cache", "--output-format", "json", "job.py"])
    report = json.loads(capsys.readouterr().out)
    assert report["files_checked"] == 0 and report["files_skipped"] == 1
    assert "UTF-16" in report["skipped"][0]["reason"]
    main(["check", "--no-cache", "--output-format", "github", "job.py"])
    assert "::warning file=job.py" in capsys.readouterr().out
