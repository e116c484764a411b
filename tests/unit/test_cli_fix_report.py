"""``--show-fixes`` and ``--fix-only`` on the team project (ruff's meanings): the table of what
was fixed, per file and rule; a fix-only run that reports nothing but what it fixed and exits 0
with findings left (1 only with ``--exit-non-zero-on-fix`` when it fixed something)."""

# ruff: noqa: RUF001  (the table counts with a times sign, as ruff's does)
from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_project import console, make_project, run_check

TABLE = [
    "",
    "Fixed 4 problems:",
    "- jobs/legacy.py:",
    "    1 × ES102 (row-option-on-taskset)",
    "    1 × ES107 (unserializable-config)",
    "- jobs/nightly.py:",
    "    1 × ES102 (row-option-on-taskset)",
    "- jobs/runners.py:",
    "    1 × ES109 (invalid-config-value)",
    "",
]
HIDDEN = (
    "1 more problem can be fixed with `--unsafe-fixes` "
    "(see `evalsubmit rule CODE` for why each fix is unsafe)."
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "team")
    monkeypatch.chdir(root)
    return root


def sources(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def test_show_fixes_lists_what_fix_fixed(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run_check(capsys, "check", "--no-cache", "--fix", "--show-fixes", ".")
    assert code == 1  # ES101 (unsafe fix) and ES103 (no fix) remain
    lines = out.splitlines()
    assert lines[:2] == [
        "jobs/nightly.py:15:18: ES101 " + lines[0].split(" ES101 ", 1)[1],
        "tests/test_nightly.py:11:22: ES103 " + lines[1].split(" ES103 ", 1)[1],
    ]
    assert "[*]" not in out  # after --fix nothing is marked fixable (as ruff)
    assert lines[2:] == [
        *TABLE,
        "Found 2 problems in 2 files.",
        "Fixed 4 problems in 3 files.",
        HIDDEN,
    ]


def test_without_show_fixes_there_is_no_table(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = run_check(capsys, "check", "--no-cache", "--fix", ".")[1]
    assert "Fixed 4 problems:" not in out and "Fixed 4 problems in 3 files." in out
    # nothing left to fix: the table is not printed at all
    out = run_check(capsys, "check", "--no-cache", "--fix", "--show-fixes", ".")[1]
    assert "×" not in out and "Fixed" not in out


def test_show_fixes_with_diff_goes_to_stderr(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sources(project)
    code, out, err = run_check(capsys, "check", "--no-cache", "--diff", "--show-fixes", ".")
    assert code == 1 and out.startswith("--- jobs/legacy.py")
    assert err.splitlines() == [*TABLE, "Would fix 4 problems in 3 files."]
    assert sources(project) == before  # --diff writes nothing


def test_fix_only_reports_only_what_it_fixed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run_check(capsys, "check", "--no-cache", "--fix-only", ".")
    assert code == 0, err  # ES101 and ES103 remain, unreported (as ruff)
    assert out == f"Fixed 4 problems in 3 files.\n{HIDDEN}\n"
    assert "ES101" not in out + err and "ES103" not in out + err
    assert 'env_vars={"CUDA_VISIBLE_DEVICES": "0"}' in (project / "jobs/runners.py").read_text()
    # the remaining findings are still there: a plain check reports them
    assert run_check(capsys, "check", "--no-cache", ".")[0] == 1
    # nothing left to fix: silent, and still 0
    assert run_check(capsys, "check", "--no-cache", "--fix-only", ".")[:2] == (0, f"{HIDDEN}\n")


def test_fix_only_exit_non_zero_on_fix_and_unsafe(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["check", "--no-cache", "--fix-only", "--exit-non-zero-on-fix", "--show-fixes"]
    code, out, _ = run_check(capsys, *argv, ".")
    assert code == 1 and out.splitlines()[:2] == TABLE[:2]
    code, out, _ = run_check(capsys, *argv, "--unsafe-fixes", ".")
    assert code == 1  # the unsafe ES101 fix now applies
    assert out.splitlines()[:4] == [
        "",
        "Fixed 1 problem:",
        "- jobs/nightly.py:",
        "    1 × ES101 (mixed-shape)",
    ]
    assert run_check(capsys, *argv, "--unsafe-fixes", ".")[0] == 0  # nothing more to fix


def test_fix_only_in_a_machine_format_prints_nothing_on_stdout(project: Path) -> None:
    """The real console script: JSON consumers get no half report; the summary is on stderr,
    and a path that was not checked is still warned about."""
    (project / "jobs" / "odd.py").write_bytes(b"# coding: klingon\nx = 1\n")
    proc = console(project, "check", "--no-cache", "--fix-only", "--output-format", "json", ".")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == ""
    assert "Fixed 4 problems in 3 files." in proc.stderr
    assert "jobs/odd.py: warning: skipped: cannot decode it" in proc.stderr
    check = console(project, "check", "--no-cache", "--output-format", "json", ".")
    codes = sorted(f["code"] for f in json.loads(check.stdout)["findings"])
    assert codes == ["ES101", "ES103"]  # fixed on disk; what remains is what --fix leaves


def test_fix_only_text_still_lists_skipped_paths_and_strict_fails_on_them(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "jobs" / "odd.py").write_bytes(b"# coding: klingon\nx = 1\n")
    code, out, _ = run_check(capsys, "check", "--no-cache", "--fix-only", ".")
    assert code == 0
    assert out.splitlines()[0] == "jobs/odd.py: warning: skipped: cannot decode it: " + (
        "unknown encoding: klingon"
    )
    assert run_check(capsys, "check", "--no-cache", "--fix-only", "--strict", ".")[0] == 1


def test_after_fix_nothing_is_marked_fixable_in_full_or_grouped(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """ruff marks ``[*]`` only when not fixing: what ``--fix`` could fix, it has fixed."""
    for fmt in ("full", "grouped"):
        make_project(project.parent / fmt)
        argv = ["check", "--no-cache", "--fix", "--unsafe-fixes", "--output-format", fmt]
        code, out, _ = run_check(capsys, *argv, str(project.parent / fmt))
        assert code == 1 and "ES103" in out  # no fix: it remains
        assert "[*]" not in out, out
