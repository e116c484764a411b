"""The editor's reverse step asks which files may report into a module
(:func:`evalsubmit.analysis.engine.crossfile.importers`) on every edit: the files on disk are
kept by their stat (or by the project's generation when it is told of changes), buffers win."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from evalsubmit.analysis.engine import crossfile
from evalsubmit.analysis.engine.crossfile import importers
from evalsubmit.workspace import observed
from evalsubmit.workspace.project import Project

SUBMITS = "from evals import runners\nclient.evaluator.submit(target=runners.build())\n"
IMPORTS_ONLY = "from evals import runners\n"


def _project(root: Path) -> tuple[Path, Path, Path]:
    (root / "evals").mkdir()
    runners = root / "evals" / "runners.py"
    runners.write_text("def build():\n    return None\n")
    job, other = root / "job.py", root / "other.py"
    job.write_text(SUBMITS)
    other.write_text(IMPORTS_ONLY)
    return runners, job, other


def _rewrite(path: Path, text: str, stamp: int) -> None:
    path.write_text(text)
    os.utime(path, ns=(stamp, stamp))  # another stat, however coarse the clock


def test_a_file_changed_on_disk_is_seen(tmp_path: Path) -> None:
    runners, job, other = _project(tmp_path)
    project = Project(tmp_path)
    assert importers(project, runners) == [job]
    _rewrite(other, IMPORTS_ONLY + "client.evaluator.submit()\n", 1)
    _rewrite(job, "print('no more')\n", 2)
    assert importers(project, runners) == [other]


def test_a_watched_project_reads_again_when_told(tmp_path: Path) -> None:
    runners, job, other = _project(tmp_path)
    project = Project(tmp_path)
    project.watched = True
    assert importers(project, runners) == [job]
    _rewrite(other, IMPORTS_ONLY + "client.evaluator.submit()\n", 1)
    assert importers(project, runners) == [job]  # not told yet: as the files were
    project.files_changed()
    assert sorted(importers(project, runners)) == [job, other]


def test_an_unchanged_file_is_not_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runners, job, _ = _project(tmp_path)
    project = Project(tmp_path)
    assert importers(project, runners) == [job]
    reads: list[Path] = []
    read = project.read_unobserved
    monkeypatch.setattr(project, "read_unobserved", lambda p: reads.append(p) or read(p))
    assert importers(project, runners) == [job]
    assert reads == []


def test_buffer_overlays_win(tmp_path: Path) -> None:
    runners, job, other = _project(tmp_path)
    project = Project(tmp_path)
    assert importers(project, runners) == [job]
    project.set_overlay(other, IMPORTS_ONLY + "client.evaluator.submit()\n")
    project.set_overlay(job, "print('edited')\n")
    assert importers(project, runners) == [other]
    project.drop_overlay(job)
    assert sorted(importers(project, runners)) == [job, other]


def test_while_noting_every_file_read_is_an_observation(tmp_path: Path) -> None:
    runners, job, other = _project(tmp_path)
    project = Project(tmp_path)
    importers(project, runners)  # kept: noting must still read and note each file
    with observed.observing() as noted:
        assert importers(project, runners) == [job]
    read = {key for kind, key in noted.records if kind == "read"}
    assert {str(job), str(other)} <= read


def test_the_cache_is_per_project(tmp_path: Path) -> None:
    runners, _, _ = _project(tmp_path)
    first, second = Project(tmp_path), Project(tmp_path)
    importers(first, runners)
    assert crossfile._cache_of(first) is not crossfile._cache_of(second)
