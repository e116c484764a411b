"""Texts of files on disk are given again only while their files are unchanged."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from evalsubmit.workspace import disk_texts
from evalsubmit.workspace.disk_texts import DiskTexts
from evalsubmit.workspace.project import Project

OLD_NS = 1_000_000_000_000_000_000  # 2001: long settled


@pytest.fixture
def settled_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The change time of a file just written cannot be set back: trust it at once."""
    monkeypatch.setattr(disk_texts, "SETTLED_NS", -(10**9))


def _write(path: Path, text: str, mtime_ns: int = OLD_NS) -> None:
    path.write_text(text)
    os.utime(path, ns=(mtime_ns, mtime_ns))


@pytest.mark.usefixtures("settled_at_once")
def test_a_settled_unchanged_file_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    module = tmp_path / "m.py"
    _write(module, "x = 1\n")
    texts = DiskTexts(1000)
    first = texts.read(module)
    monkeypatch.setattr(disk_texts, "read_source", lambda *a, **k: pytest.fail("read again"))
    assert texts.read(module) is first == "x = 1\n"


@pytest.mark.usefixtures("settled_at_once")
def test_a_write_keeping_size_and_mtime_is_seen(tmp_path: Path) -> None:
    # the change time moves with every write, whatever the modification time says
    module = tmp_path / "m.py"
    _write(module, "x = 1\n")
    texts = DiskTexts(1000)
    assert texts.read(module) == "x = 1\n"
    assert str(module) in texts._kept
    time.sleep(0.05)  # past the clock's tick
    _write(module, "x = 2\n")
    assert texts.read(module) == "x = 2\n"


def test_a_recent_file_is_read_again_until_settled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # written in the same clock tick as the read, a second write may leave every time alike
    module = tmp_path / "m.py"
    module.write_text("x = 1\n")
    texts = DiskTexts(1000)
    assert texts.read(module) == "x = 1\n"
    reads: list[Path] = []
    real = disk_texts.read_source
    monkeypatch.setattr(disk_texts, "read_source", lambda p, **k: reads.append(p) or real(p, **k))
    assert texts.read(module) == "x = 1\n"
    assert reads == [module]


def test_missing_and_special_files_read_as_before(tmp_path: Path) -> None:
    texts = DiskTexts(1000)
    assert texts.read(tmp_path / "gone.py") is None
    assert texts.read(tmp_path) is None
    module = tmp_path / "m.py"
    _write(module, "x = 1\n")
    assert texts.read(module) == "x = 1\n"
    module.unlink()
    assert texts.read(module) is None


@pytest.mark.usefixtures("settled_at_once")
def test_bounded(tmp_path: Path) -> None:
    texts = DiskTexts(1000, max_chars=10)
    for name in ("a", "b", "c"):
        _write(tmp_path / f"{name}.py", "x = 1\n")
        texts.read(tmp_path / f"{name}.py")
    assert texts._chars <= 10
    assert list(texts._kept) == [str(tmp_path / "c.py")]


def test_an_overlay_wins_over_the_kept_text(tmp_path: Path) -> None:
    module = tmp_path / "m.py"
    _write(module, "x = 1\n")
    project = Project(tmp_path)
    assert project.read(module) == "x = 1\n"
    project.set_overlay(module, "x = 2\n")
    assert project.read(module) == "x = 2\n"
    project.drop_overlay(module)
    assert project.read(module) == "x = 1\n"
