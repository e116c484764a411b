"""Where a module's imports are searched is remembered per folder, and forgotten when a file
appears (on disk, or as an unsaved editor buffer): a package made by adding ``__init__.py``,
or a module written in a new buffer, resolves at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.workspace.project import Project


def _layout(tmp_path: Path) -> tuple[Path, Path]:
    package = tmp_path / "app" / "pkg"
    package.mkdir(parents=True)
    (package / "mod.py").write_text("VALUE = 1\n")
    job = package / "job.py"
    job.write_text("from pkg.mod import VALUE\n")
    return package, job


def test_a_package_made_on_disk_is_searched_from_its_parent(tmp_path: Path) -> None:
    package, job = _layout(tmp_path)
    project = Project(None)
    assert project.find_module("pkg.mod", job) is None  # not a package: only its folder
    (package / "__init__.py").write_text("")
    project.forget_files()
    assert project.find_module("pkg.mod", job) == (package / "mod.py").resolve()


def test_a_module_in_an_unsaved_buffer_is_found_after_a_miss(tmp_path: Path) -> None:
    package, job = _layout(tmp_path)
    project = Project(None)
    assert project.find_module("extra", job) is None
    project.set_overlay(package / "extra.py", "VALUE = 2\n")
    assert project.find_module("extra", job) == (package / "extra.py").resolve()


def test_the_roots_are_asked_once_per_folder(tmp_path: Path) -> None:
    _, job = _layout(tmp_path)
    project = Project(None)
    first = project.search_roots(job)
    first.append(tmp_path)  # callers get a copy: the remembered list cannot be changed
    assert project.search_roots(job) == first[:-1]


def test_a_resolved_path_is_kept_until_files_come_or_go(tmp_path: Path) -> None:
    """``Project.resolved`` keeps what a link led to; a link made again (files that come and
    go, as the editor's watcher reports them) is followed again."""
    (tmp_path / "a.py").write_text("")
    (tmp_path / "b.py").write_text("")
    link = tmp_path / "job.py"
    link.symlink_to(tmp_path / "a.py")
    project = Project(None)
    assert project.resolved(link) == (tmp_path / "a.py").resolve()
    link.unlink()
    link.symlink_to(tmp_path / "b.py")
    assert project.resolved(link) == (tmp_path / "a.py").resolve()  # kept until told
    project.forget_files()
    assert project.resolved(link) == (tmp_path / "b.py").resolve()


def test_a_relative_path_is_resolved_in_the_working_folder_of_the_moment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
    project = Project(None)
    monkeypatch.chdir(tmp_path / "one")
    assert project.resolved(Path("job.py")) == (tmp_path / "one" / "job.py").resolve()
    monkeypatch.chdir(tmp_path / "two")
    assert project.resolved(Path("job.py")) == (tmp_path / "two" / "job.py").resolve()
