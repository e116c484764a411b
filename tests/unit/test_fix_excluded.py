"""``check --fix`` never writes a file the configuration's ``exclude`` or a ``.gitignore`` leaves
out, whatever name leads to it: the walk leaves out an in-tree link whose target is excluded
(as it leaves out the target itself), and the writer refuses an excluded target on its own."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_project import RUNNERS, make_project
from evalsubmit.cli import main
from evalsubmit.cli.check_flags import FixRequest
from evalsubmit.cli.fixing import FileFix, apply_fixes
from evalsubmit.workspace.walk import WalkRules, python_files

RUNNERS_FIXED = RUNNERS.replace('{"CUDA_VISIBLE_DEVICES": 0}', '{"CUDA_VISIBLE_DEVICES": "0"}')


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def linked_vendor(root: Path, how: str) -> Path:
    """A project whose ``vendor/lib.py`` (fixable) is left out by ``how`` (``exclude`` or
    ``gitignore``) and reached through the in-tree link ``jobs/uses_vendor.py``."""
    make_project(root)
    if how == "exclude":
        (root / "evalsubmit.toml").write_text('exclude = ["vendor/"]\n', encoding="utf-8")
    else:
        (root / ".gitignore").write_text("vendor/\n", encoding="utf-8")
    (root / "vendor").mkdir()
    (root / "vendor" / "lib.py").write_text(RUNNERS, encoding="utf-8")
    (root / "jobs" / "uses_vendor.py").symlink_to(Path("..") / "vendor" / "lib.py")
    return root / "vendor" / "lib.py"


def vendor_excluded(root: Path, how: str) -> Callable[[Path, bool], bool]:
    """The configuration's ``exclude = ["vendor/"]`` (nothing when ``how`` is the .gitignore):
    a path as named, never resolved."""
    vendor = root.resolve() / "vendor"

    def excluded(path: Path, is_dir: bool) -> bool:
        return how == "exclude" and Path(os.path.abspath(path)).is_relative_to(vendor)

    return excluded


@pytest.mark.parametrize("how", ["exclude", "gitignore"])
def test_fix_leaves_a_linked_excluded_file_alone(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    vendored = linked_vendor(tmp_path / "team", how)
    monkeypatch.chdir(tmp_path / "team")
    code, out, err = run(capsys, "check", "--fix", ".")
    assert code == 1 and vendored.read_text(encoding="utf-8") == RUNNERS  # not rewritten
    assert "uses_vendor" not in out + err and "vendor/lib.py" not in out + err
    # the other files are fixed and counted as before: the link is silently out, like its target
    assert (tmp_path / "team" / "jobs" / "runners.py").read_text(encoding="utf-8") == RUNNERS_FIXED
    assert "Found 2 problems in 2 files." in out and "Fixed 4 problems in 3 files." in out, err
    code, out, _ = run(capsys, "check", "--statistics", "--output-format", "json", ".")
    assert code == 1 and "uses_vendor" not in out


@pytest.mark.parametrize("how", ["exclude", "gitignore"])
def test_the_walk_judges_a_link_by_its_target(how: str, tmp_path: Path) -> None:
    vendored = linked_vendor(tmp_path / "team", how)
    root = tmp_path / "team"

    found = list(python_files([root.resolve()], excluded=vendor_excluded(root, how)))
    names = {p.name for p in found}
    assert "uses_vendor.py" not in names and "lib.py" not in names
    assert {"runners.py", "nightly.py", "legacy.py", "test_nightly.py"} <= names
    assert vendored.exists()


@pytest.mark.parametrize("how", ["exclude", "gitignore"])
def test_the_writer_refuses_an_excluded_target_on_its_own(
    how: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A link the walk let through (it was changed after the walk, or the walk missed it):
    the writer judges the file it would replace and leaves it, with a warning."""
    vendored = linked_vendor(tmp_path / "team", how)
    root = tmp_path / "team"
    link = root / "jobs" / "uses_vendor.py"

    rules = WalkRules(vendor_excluded(root, how))
    fix = FileFix(link, RUNNERS, RUNNERS_FIXED, "utf-8", 1)
    totals = apply_fixes([fix], FixRequest(unsafe=False, diff=False), left_out=rules.leaves_out)
    assert vendored.read_text(encoding="utf-8") == RUNNERS
    assert totals.unwritten == {link} and totals.fixed == 0 and totals.files == 0
    assert len(totals.warnings) == 1
    assert "excluded" in totals.warnings[0] and str(vendored.resolve()) in totals.warnings[0]


def test_fix_leaves_a_named_excluded_file_checked_but_unwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Named on the command line, an excluded file is still checked (as ruff does), but
    ``--fix`` never writes it."""
    vendored = linked_vendor(tmp_path / "team", "exclude")
    monkeypatch.chdir(tmp_path / "team")
    code, out, err = run(capsys, "check", "--fix", "vendor/lib.py")
    assert vendored.read_text(encoding="utf-8") == RUNNERS
    assert code == 1 and "ES109" in out and "Fixed" not in out
    assert "not fixed" in err and "excluded" in err
