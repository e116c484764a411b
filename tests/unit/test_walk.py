"""The walk, one odd entry at a time: it never raises, names what it skips, and goes on."""

from __future__ import annotations

import os
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from evalsubmit.workspace.walk import CACHEDIR_SIGNATURE, python_files


def walk(root: Path) -> tuple[list[str], list[tuple[str, str]]]:
    skipped: list[tuple[str, str]] = []
    found = list(python_files([root], on_skip=lambda p, why: skipped.append((str(p), why))))
    return sorted(p.relative_to(root).as_posix() for p in found), skipped


def odd_symlink_loop(root: Path) -> str:
    os.symlink("loop.py", root / "loop.py")
    return "cannot be followed"


def odd_mutual_folder_links(root: Path) -> str:
    os.symlink("b", root / "a")
    os.symlink("a", root / "b")
    (root / "c").mkdir()
    os.symlink("..", root / "c" / "up")
    return "link to a folder"


def odd_link_out_of_the_tree(root: Path) -> str:
    outside = root.parent / f"{root.name}-outside.py"
    outside.write_text("x = 1\n")
    os.symlink(outside, root / "escape.py")
    return "link out of"


def odd_gitignore_bang(root: Path) -> str:
    (root / ".gitignore").write_text("!\n")
    return "line 1 '!'"


def odd_gitignore_trailing_backslash(root: Path) -> str:
    (root / ".gitignore").write_text("foo\\\n")
    return "line 1 'foo\\\\'"


def odd_gitignore_bad_range(root: Path) -> str:
    (root / ".gitignore").write_text("[z-a]\n")
    return "line 1 '[z-a]'"


def odd_gitignore_fifo(root: Path) -> str:
    os.mkfifo(root / ".gitignore")
    return "FIFO"


ODD: dict[str, Callable[[Path], str]] = {
    name.removeprefix("odd_"): fn for name, fn in globals().items() if name.startswith("odd_")
}


@pytest.mark.parametrize("case", sorted(ODD))
def test_an_odd_entry_is_named_and_the_walk_goes_on(tmp_path: Path, case: str) -> None:
    root = tmp_path / "ws"
    (root / "pkg").mkdir(parents=True)
    (root / "a.py").write_text("x = 1\n")
    (root / "pkg" / "b.py").write_text("x = 1\n")
    reason = ODD[case](root)
    found, skipped = walk(root)
    assert {"a.py", "pkg/b.py"} <= set(found)
    assert any(reason in why for _, why in skipped), skipped


def test_the_other_gitignore_lines_still_apply(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("!\nbuild/\n[z-a]\n*.gen.py\n!keep.gen.py\n")
    for name in ("build/x.py", "a.gen.py", "keep.gen.py", "ok.py"):
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text("")
    found, skipped = walk(tmp_path)
    assert found == ["keep.gen.py", "ok.py"]
    assert len(skipped) == 2


def test_a_nested_gitignore_adds_to_the_outer_one(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("build/\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text("*.tmp.py\n")
    for name in ("sub/build/x.py", "sub/a.tmp.py", "sub/b.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert walk(tmp_path)[0] == ["sub/b.py"]


@pytest.fixture
def own_tmp() -> Iterator[Path]:
    """A folder outside pytest's temp tree, removed with rm: pytest's own clean-up recurses
    (RecursionError) on trees this deep, and would leave them behind for every later run."""
    folder = Path(tempfile.mkdtemp(prefix="evalsubmit-walk-"))
    try:
        yield folder
    finally:
        subprocess.run(["rm", "-rf", "--", str(folder)], check=False, timeout=120)


def test_a_tree_thousands_of_levels_deep(own_tmp: Path) -> None:
    """It used to recurse (RecursionError after minutes); now it is a loop, linear in size."""
    tmp_path = own_tmp
    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(1_500):
        os.mkdir("d", dir_fd=fd)
        inner = os.open("d", os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(os.open("deep.py", os.O_WRONLY | os.O_CREAT, dir_fd=fd))
    os.close(fd)
    started = time.monotonic()
    found, skipped = walk(tmp_path)
    assert found == ["/".join(["d"] * 1_500) + "/deep.py"] and skipped == []
    assert time.monotonic() - started < 30


def test_paths_longer_than_the_system_allows(own_tmp: Path) -> None:
    tmp_path = own_tmp
    (tmp_path / "ok.py").write_text("")
    fd = os.open(tmp_path, os.O_RDONLY)
    for _ in range(25):  # 25 x 201 characters: past PATH_MAX (4,096)
        os.mkdir("x" * 200, dir_fd=fd)
        inner = os.open("x" * 200, os.O_RDONLY, dir_fd=fd)
        os.close(fd)
        fd = inner
    os.close(fd)
    found, skipped = walk(tmp_path)
    assert found == ["ok.py"]
    assert any("File name too long" in why for _, why in skipped), skipped


def test_a_file_named_twice_is_listed_once(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("")
    os.symlink("a.py", tmp_path / "same.py")
    found = list(python_files([tmp_path / "a.py", tmp_path, tmp_path / "same.py"]))
    assert found == [tmp_path / "a.py"]


def test_a_fifo_named_on_the_command_line_is_listed_for_the_reader_to_refuse(
    tmp_path: Path,
) -> None:
    os.mkfifo(tmp_path / "named.py")
    assert list(python_files([tmp_path / "named.py"])) == [tmp_path / "named.py"]


def test_the_walk_never_enters_a_cache_folder(tmp_path: Path) -> None:
    """Not even one without its ``.gitignore``: by name, by a tag with the standard
    signature, or named by the caller (``--cache-dir``)."""
    (tmp_path / "job.py").write_text("")
    for folder in (".evalsubmit_cache/v2-0.1.0", "tagged", "chosen", "wrong-tag"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "planted.py").write_text("")
    (tmp_path / "tagged" / "CACHEDIR.TAG").write_text(f"{CACHEDIR_SIGNATURE}\n# a tool\n")
    (tmp_path / "wrong-tag" / "CACHEDIR.TAG").write_text("Signature: something else\n")
    found = python_files([tmp_path], skipped_folders=[tmp_path / "chosen"])
    names = sorted(p.relative_to(tmp_path).as_posix() for p in found)
    assert names == ["job.py", "wrong-tag/planted.py"]
