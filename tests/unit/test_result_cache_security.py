"""The result cache against a hostile repository (issue 23, security round 2): it never follows a
link out of its own folder, never deletes what it did not write, reads a bounded amount, and
never skips an analysis on the word of an entry this machine's evalsubmit did not write for
this very folder."""

from __future__ import annotations

import json
import os
import resource
import shutil
import stat
import subprocess
from pathlib import Path
from typing import Any

import pytest
from test_result_cache import EVALSUBMIT, JOB, check, project

import evalsubmit
from evalsubmit.cli import cache_folder
from evalsubmit.workspace.walk import CACHE_FOLDER_NAME
from result_cache_env import Counted

WARNING = "evalsubmit: warning: results not cached"


@pytest.fixture
def default_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache at the project root, where a repository can commit one."""
    monkeypatch.delenv("EVALSUBMIT_CACHE_DIR", raising=False)


@pytest.fixture(autouse=True)
def key_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """This test's own user cache folder, where the key of the cache's entries is kept."""
    home = tmp_path / "user-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    return home


def parsed(entry: Path) -> tuple[str, dict[str, Any]]:
    """An entry's JSON, and whatever precedes it."""
    text = entry.read_text()
    start = text.index("{")
    return text[:start], json.loads(text[start:])


def edited(entry: Path, findings: list[object]) -> None:
    """Replace an entry's findings, keeping whatever precedes its JSON."""
    head, data = parsed(entry)
    data["result"]["findings"] = findings
    entry.write_text(head + json.dumps(data))


# -- links out of the cache's folder ----------------------------------------------------------


def test_a_version_folder_linked_elsewhere_is_neither_written_nor_pruned(
    tmp_path: Path, default_folder: None, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p", suite="qa team/x")
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "data.json").write_text('{"precious": true}')
    folder = root / CACHE_FOLDER_NAME
    folder.mkdir()
    cache_folder.versioned(folder).symlink_to(victim)
    uncached = check(capsys, "--no-cache", str(root / "job.py"))
    code, out, err = check(capsys, str(root / "job.py"))
    assert (code, out) == uncached[:2]
    assert [p.name for p in victim.iterdir()] == ["data.json"]
    assert (victim / "data.json").read_text() == '{"precious": true}'
    assert err.count(WARNING) == 1, err


@pytest.mark.parametrize("where", ["default", "--cache-dir"])
def test_a_cache_folder_that_is_a_link_is_refused(
    tmp_path: Path, where: str, default_folder: None, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p", suite="qa team/x")
    victim = tmp_path / "victim"
    victim.mkdir()
    link = root / CACHE_FOLDER_NAME if where == "default" else tmp_path / "link"
    link.symlink_to(victim)
    flags = ["--cache-dir", str(link)] if where == "--cache-dir" else []
    uncached = check(capsys, "--no-cache", str(root / "job.py"))
    code, out, err = check(capsys, *flags, str(root / "job.py"))
    assert (code, out) == uncached[:2]
    assert list(victim.iterdir()) == []  # no CACHEDIR.TAG, no .gitignore, no entries
    assert err.count(WARNING) == 1, err


def test_an_entry_is_never_read_through_a_link_or_from_a_special_file(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``/dev/zero`` never ends and a FIFO blocks its reader: run as users do, under a memory
    limit, with a deadline."""
    job = project(tmp_path / "p", suite="qa team/x") / "job.py"
    first = check(capsys, str(job))
    (entry,) = cache.glob("v*/*.json")
    env = {k: v for k, v in os.environ.items() if k != "VIRTUAL_ENV"}

    def limited() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    for make in (lambda: entry.symlink_to("/dev/zero"), lambda: os.mkfifo(entry)):
        entry.unlink()
        make()
        proc = subprocess.run(
            [str(EVALSUBMIT), "check", str(job)],
            capture_output=True,
            text=True,
            env=env,
            timeout=60,
            preexec_fn=limited,
            check=False,
        )
        assert (proc.returncode, proc.stdout) == first[:2], proc.stderr
        assert "Traceback" not in proc.stderr
        assert stat.S_ISREG(entry.lstat().st_mode)  # replaced by a fresh entry


def test_an_entry_larger_than_the_cap_is_not_read(
    tmp_path: Path,
    cache: Path,
    counted: Counted,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    job = project(tmp_path / "p") / "job.py"
    check(capsys, str(job))
    (entry,) = cache.glob("v*/*.json")
    monkeypatch.setattr(cache_folder, "MAX_ENTRY_BYTES", entry.stat().st_size - 1)
    assert cache_folder.read_entry(entry) is None
    check(capsys, str(job))
    assert counted.take() == 2


# -- entries this machine did not write for this folder ---------------------------------------


def test_an_edited_committed_entry_is_not_trusted(
    tmp_path: Path,
    default_folder: None,
    counted: Counted,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The attack: an entry saying "no findings" committed with ``git add -f`` for a file with
    ES108, checked out at the same path on the same install."""
    root = project(tmp_path / "p", suite="qa team/x")
    first = check(capsys, str(root / "job.py"))
    assert first[0] == 1 and "ES108" in first[1]
    (entry,) = (root / CACHE_FOLDER_NAME).glob("v*/*.json")
    edited(entry, [])
    counted.take()
    assert check(capsys, str(root / "job.py")) == first
    assert counted.take() == 1
    assert check(capsys, str(root / "job.py")) == first  # rewritten: a hit again
    assert counted.take() == 0


def test_an_entry_written_under_another_key_is_not_trusted(
    tmp_path: Path,
    cache: Path,
    counted: Counted,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Another machine's (or a fresh CI container's) entries: the key differs."""
    job = project(tmp_path / "p") / "job.py"
    check(capsys, str(job))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "another-machine"))
    check(capsys, str(job))
    assert counted.take() == 2


def test_an_entry_copied_from_another_cache_folder_is_not_trusted(
    tmp_path: Path,
    counted: Counted,
    capsys: pytest.CaptureFixture[str],
) -> None:
    job = project(tmp_path / "p") / "job.py"
    check(capsys, "--cache-dir", str(tmp_path / "a"), str(job))
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    check(capsys, "--cache-dir", str(tmp_path / "b"), str(job))
    assert counted.take() == 2


def test_the_key_is_private_to_the_user(
    tmp_path: Path, cache: Path, key_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    check(capsys, str(project(tmp_path / "p") / "job.py"))
    folder = key_home / "evalsubmit"
    (key,) = (p for p in folder.iterdir() if not p.name.startswith("."))
    assert stat.S_IMODE(folder.stat().st_mode) & 0o077 == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600


def test_without_a_key_nothing_is_cached_and_one_warning_says_why(
    tmp_path: Path,
    cache: Path,
    key_home: Path,
    counted: Counted,
    capsys: pytest.CaptureFixture[str],
) -> None:
    key_home.write_text("not a folder")
    job = str(project(tmp_path / "p") / "job.py")
    uncached = check(capsys, "--no-cache", job)
    for _ in range(2):
        code, out, err = check(capsys, job)
        assert (code, out) == uncached[:2] and err.count(WARNING) == 1, err
    assert counted.take() == 3 and not list(cache.glob("v*/*.json"))


# -- what is pruned ---------------------------------------------------------------------------


def test_the_prune_deletes_only_entries_of_ours(
    tmp_path: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p")
    (root / "other.py").write_text(JOB)
    check(capsys, str(root / "job.py"), str(root / "other.py"))
    folder = cache_folder.versioned(cache)
    entries = {parsed(entry)[1]["key"]["path"]: entry for entry in folder.glob("*.json")}
    gone, kept = entries[str(root / "other.py")], entries[str(root / "job.py")]
    (root / "other.py").unlink()
    foreign = folder / ("0" * 32 + ".json")  # our name, not our content
    foreign.write_text('{"key": {"path": "/nowhere"}}')
    notes = folder / "notes.json"
    notes.write_text("{}")
    (folder / "last-pruned").unlink()  # the prune is due
    check(capsys, str(root / "job.py"))
    assert not gone.exists() and kept.exists() and foreign.exists() and notes.exists()


def test_older_version_folders_of_ours_are_pruned_and_nothing_else(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    job = str(project(tmp_path / "p") / "job.py")
    current = evalsubmit.__version__
    monkeypatch.setattr(evalsubmit, "__version__", "0.0.1")
    check(capsys, job)
    old = cache_folder.versioned(cache)
    elsewhere = tmp_path / "elsewhere"
    shutil.copytree(old, elsewhere)
    (cache / "v1-0.0.0-link").symlink_to(elsewhere)
    foreign = cache / "v1-0.0.0"  # no marker of ours: not written by us
    foreign.mkdir()
    (foreign / ("0" * 32 + ".json")).write_text("{}")
    monkeypatch.setattr(evalsubmit, "__version__", current)
    check(capsys, job)
    assert not old.exists()
    assert sorted(p.name for p in cache.iterdir() if p.name.startswith("v")) == sorted(
        ["v1-0.0.0", "v1-0.0.0-link", cache_folder.versioned(cache).name]
    )
    assert list(foreign.iterdir()) and len(list(elsewhere.glob("*.json"))) == 1


# -- the walk ---------------------------------------------------------------------------------


def test_a_cache_dir_inside_the_tree_is_not_walked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = project(tmp_path / "p")
    monkeypatch.chdir(root)
    assert check(capsys, "--cache-dir", "kept", ".")[0] == 0
    for name in (".gitignore", "CACHEDIR.TAG"):
        (root / "kept" / name).unlink()
    (root / "kept" / "planted.py").write_text(JOB.replace("tasks=TASKS", 'tasks="qa team/x"'))
    code, out, _ = check(capsys, "--cache-dir", "kept", ".")
    assert code == 0 and "planted" not in out
