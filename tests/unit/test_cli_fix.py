"""``evalsubmit check --fix / --diff / --unsafe-fixes`` on a small team project: the bytes of
each fixed file (encoding, BOM and CRLF kept), what remains, the exit codes, and that a file is
never written when it cannot be written back exactly."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from cli_project import LEGACY, NIGHTLY, RUNNERS, TEST_NIGHTLY, console, make_project, run_check
from evalsubmit.cli.fixing import write_back

REPO = Path(__file__).resolve().parents[2]
ES101_MESSAGE = (
    "submit() takes either `tasks=` + `target=` or `metric=` + `dataset=`, not both: "
    "remove `metric=` for a taskset run, or `tasks=` for a row evaluation"
)
ES103_MESSAGE = (
    "submit() needs `tasks=` + `target=` or `metric=` + `dataset=`, and neither was supplied: "
    "add `tasks=TasksetRef(...)` to run this runner on a taskset"
)
RUNNERS_FIXED = RUNNERS.replace('{"CUDA_VISIBLE_DEVICES": 0}', '{"CUDA_VISIBLE_DEVICES": "0"}')
NIGHTLY_FIXED = NIGHTLY.replace(",\n    config=RunConfig(parallelism=16)", "")
LEGACY_FIXED = LEGACY.replace(
    "(s * 7 for s in range(4))", "list((s * 7 for s in range(4)))"
).replace(', prompt_template="{{item.q}}"', "")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = make_project(tmp_path / "team")
    monkeypatch.chdir(root)
    return root


run = run_check


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*.py"))}


def test_fix_applies_the_safe_fixes_and_keeps_encoding_bom_and_crlf(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(capsys, "check", "--fix", ".")
    assert code == 1, err  # ES101 (unsafe fix) and ES103 (no fix) remain
    assert (project / "jobs" / "runners.py").read_text(encoding="utf-8") == RUNNERS_FIXED
    assert (project / "jobs" / "nightly.py").read_text(encoding="utf-8") == NIGHTLY_FIXED
    # The legacy file: its BOM and CRLF line ends kept; ES107 only showed once ES102 was
    # fixed (the SDK checks content after the shape), so it took a second round.
    assert (project / "jobs" / "legacy.py").read_bytes() == codecs.BOM_UTF8 + LEGACY_FIXED.replace(
        "\n", "\r\n"
    ).encode("utf-8")
    assert (project / "tests" / "test_nightly.py").read_text(encoding="utf-8") == TEST_NIGHTLY
    assert out == (
        f"jobs/nightly.py:15:18: ES101 {ES101_MESSAGE}\n"
        f"tests/test_nightly.py:11:22: ES103 {ES103_MESSAGE}\n"
        "Found 2 problems in 2 files.\n"
        "Fixed 4 problems in 3 files.\n"
        "1 more problem can be fixed with `--unsafe-fixes` "
        "(see `evalsubmit rule CODE` for why each fix is unsafe).\n"
    )
    # A fixed point: a second run fixes nothing and reports the same two problems.
    code, again, _ = run(capsys, "check", "--fix", ".")
    assert code == 1 and "Fixed" not in again and "Found 2 problems in 2 files." in again


def test_unsafe_fixes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "check", "--fix", "--unsafe-fixes", "jobs")
    assert code == 0
    assert out == "All checks passed (4 files).\nFixed 5 problems in 3 files.\n"
    nightly = (project / "jobs" / "nightly.py").read_text(encoding="utf-8")
    assert nightly == NIGHTLY_FIXED.replace(", metric=metric)", ")")


def test_exit_non_zero_on_fix_and_exit_zero(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runners = project / "jobs" / "runners.py"
    code, out, _ = run(capsys, "check", "--fix", "--exit-non-zero-on-fix", str(runners))
    assert code == 1 and out == "All checks passed (1 file).\nFixed 1 problem in 1 file.\n"
    runners.write_text(RUNNERS, encoding="utf-8")
    assert run(capsys, "check", "--fix", str(runners))[0] == 0  # nothing remains: clean
    assert run(capsys, "check", "--exit-zero", ".")[0] == 0  # five findings, exit 0


def test_diff_shows_the_change_and_writes_nothing(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = snapshot(project)
    code, out, err = run(capsys, "check", "--diff", "jobs/runners.py")
    assert code == 1
    assert out == (
        "--- jobs/runners.py\n"
        "+++ jobs/runners.py\n"
        "@@ -9,6 +9,6 @@\n"
        "         agent=agent,\n"
        '         agent_config="configs/agent.yaml",\n'
        '         resources_server="mcqa",\n'
        '-        env_vars={"CUDA_VISIBLE_DEVICES": 0},\n'
        '+        env_vars={"CUDA_VISIBLE_DEVICES": "0"},\n'
        "     )\n"
        "     return GymAgentTaskRunner(config=config)\n"
    )
    assert err == "Would fix 1 problem in 1 file.\n"
    code, out, err = run(capsys, "check", "--diff", "--fix", ".")  # --diff wins: no writes
    assert code == 1 and "+++ jobs/legacy.py" in out and "\r\n" in out
    assert err == "Would fix 4 problems in 3 files.\n"
    assert snapshot(project) == before
    code, out, err = run(capsys, "check", "--diff", "tests")
    assert (code, out, err) == (0, "", "No fixes available.\n")


def test_a_file_that_cannot_be_written_back_exactly_is_left_alone(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runners = project / "jobs" / "runners.py"
    data = RUNNERS.encode() + b"# caf\xe9 (latin-1 in a UTF-8 file)\n"
    runners.write_bytes(data)
    code, out, err = run(capsys, "check", "--fix", str(runners))
    assert runners.read_bytes() == data  # writing U+FFFD back would corrupt the byte
    assert code == 1 and "ES109" in out and "Fixed" not in out
    assert "not fixed: its bytes on disk are not the ones checked" in err


def test_write_back_refuses_a_file_changed_meanwhile(tmp_path: Path) -> None:
    path = tmp_path / "job.py"
    path.write_text("x = 1\n", encoding="utf-8")
    path.write_text("x = 2\n", encoding="utf-8")  # edited after it was read as "x = 1"
    error = write_back(path, "x = 1\n", "x = 3\n", "utf-8")
    assert error is not None and "not overwritten" in error
    assert path.read_text(encoding="utf-8") == "x = 2\n"


def test_write_back_keeps_the_mode_and_writes_through_a_symlink(tmp_path: Path) -> None:
    real = tmp_path / "real.py"
    real.write_bytes(b"# -*- coding: latin-1 -*-\nname = 'caf\xe9'\n")
    real.chmod(0o640)
    link = tmp_path / "link.py"
    link.symlink_to(real)
    original = "# -*- coding: latin-1 -*-\nname = 'café'\n"
    assert write_back(link, original, original.replace("name", "label"), "latin-1") is None
    assert link.is_symlink()
    assert real.read_bytes() == b"# -*- coding: latin-1 -*-\nlabel = 'caf\xe9'\n"
    assert real.stat().st_mode & 0o777 == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.py", "real.py"]  # no temp left


def test_the_console_script_fixes_files(project: Path) -> None:
    proc = console(project, "check", "--fix", "--output-format", "json", "jobs")
    assert proc.returncode == 1, proc.stderr
    assert '"code": "ES101"' in proc.stdout and '"code": "ES102"' not in proc.stdout
    assert "Fixed 4 problems in 3 files." in proc.stderr  # JSON on stdout stays parseable
    assert (project / "jobs" / "runners.py").read_text(encoding="utf-8") == RUNNERS_FIXED


def test_fix_in_worker_processes(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for index in range(70):  # above the threshold where check analyses in worker processes
        (project / "jobs" / f"team_{index:02}.py").write_text(RUNNERS, encoding="utf-8")
    code, out, err = run(capsys, "check", "--fix", "--jobs", "2", "--select", "ES109", "jobs")
    assert code == 0, err
    assert out == "All checks passed (74 files).\nFixed 71 problems in 71 files.\n"
    assert (project / "jobs" / "team_69.py").read_text(encoding="utf-8") == RUNNERS_FIXED


def test_a_module_that_does_not_parse_is_reported_not_fixed(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    nightly = project / "jobs" / "nightly.py"
    broken = NIGHTLY + "def half_written(:\n"
    nightly.write_text(broken, encoding="utf-8")
    code, out, err = run(capsys, "check", "--fix", str(nightly))
    assert nightly.read_text(encoding="utf-8") == broken
    assert code == 1 and " ES102 " in out and "Fixed" not in out
    assert err == (
        f"evalsubmit: warning: {nightly}: not fixed, left as it was: "
        "the module does not parse: fix its syntax first\n"
    )
