"""The flags a ruff user types (issue 28), each run as the installed console script on the
small team project of :mod:`cli_project`; exit codes compared with ruff's where ruff is
installed in ``.venv``."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import threading
import time
from pathlib import Path

import pytest

from cli_project import console, make_project
from notebook_files import code, notebook, write

ROOT = Path(__file__).resolve().parents[2]
RUFF = ROOT / ".venv/bin/ruff"
FOUND = ["ES101", "ES102", "ES103", "ES109"]


@pytest.fixture
def project(tmp_path: Path) -> Path:
    return make_project(tmp_path / "team")


def codes(out: str) -> list[str]:
    return sorted({line.split(": ")[1].split()[0] for line in out.splitlines() if ": ES" in line})


def test_default_path_is_the_current_folder(project: Path) -> None:
    named = console(project, "check", "--no-cache", ".")
    default = console(project, "check", "--no-cache")
    assert default.returncode == named.returncode == 1
    assert default.stdout == named.stdout and codes(default.stdout) == FOUND


def test_quiet_silent_exit_zero_and_their_exit_codes(project: Path) -> None:
    quiet = console(project, "check", "-q")
    assert quiet.returncode == 1
    assert codes(quiet.stdout) == FOUND and "Found" not in quiet.stdout
    silent = console(project, "check", "-s")
    assert (silent.returncode, silent.stdout, silent.stderr) == (1, "", "")
    zero = console(project, "check", "-e", "-q")
    assert zero.returncode == 0 and codes(zero.stdout) == FOUND
    out = project / "reports" / "lint.txt"
    written = console(project, "check", "-o", str(out))
    assert written.stdout == "" and "Found 5 problems" in out.read_text()


@pytest.mark.skipif(not RUFF.exists(), reason="ruff is not installed in .venv")
def test_exit_codes_match_ruff(tmp_path: Path) -> None:
    (tmp_path / "bad.py").write_text("import os\n", encoding="utf-8")
    bad = make_project(tmp_path / "p")
    for flags in ([], ["-q"], ["-s"], ["-e"], ["-e", "-q"], ["-e", "-s"]):
        ours = console(bad, "check", *flags).returncode
        theirs = subprocess.run(
            [str(RUFF), "check", "--isolated", *flags, str(tmp_path / "bad.py")],
            capture_output=True,
            check=False,
        ).returncode
        assert ours == theirs, flags


def test_verbose_says_what_was_excluded_and_analysed(project: Path) -> None:
    run = console(project, "check", "-v", "--no-cache", "--exclude", "tests")
    assert "[evalsubmit] excluded: tests" in run.stderr
    assert "[evalsubmit] not analysed: jobs/__init__.py" in run.stderr
    assert "[evalsubmit] checked: jobs/nightly.py" in run.stderr
    assert "ES103" not in run.stdout


def test_version_short_flag() -> None:
    run = console(ROOT, "-V")
    assert run.returncode == 0 and run.stdout.startswith("evalsubmit ")


def test_python_dash_m_evalsubmit_is_the_cli(project: Path) -> None:
    """``python -m evalsubmit`` (as ``python -m ruff``) runs the same CLI as the script."""
    python = str(ROOT / ".venv/bin/python")

    def module(*argv: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [python, "-m", "evalsubmit", *argv],
            capture_output=True,
            text=True,
            timeout=120,
            cwd=project,
            env={**os.environ, "VIRTUAL_ENV": ""},
        )

    assert module("--version").stdout == console(project, "--version").stdout
    by_module, by_script = module("check", "--no-cache"), console(project, "check", "--no-cache")
    assert (by_module.returncode, by_module.stdout) == (1, by_script.stdout)
    assert codes(by_module.stdout) == FOUND


def test_show_files_honours_exclude(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[tool.evalsubmit]\nextend-exclude = ["tests"]\n', encoding="utf-8"
    )
    run = console(project, "check", "--show-files")
    listed = run.stdout.splitlines()
    assert run.returncode == 0
    assert listed == sorted(str(p) for p in (project / "jobs").glob("*.py"))


def test_config_overrides_select_all_and_errors(project: Path) -> None:
    run = console(project, "check", "--config", "select = ['ES109']")
    assert codes(run.stdout) == ["ES109"]
    everything = console(project, "check", "--config", "select = ['ALL']", "--ignore", "ES1")
    assert everything.returncode == 0 and "All checks passed" in everything.stdout
    bad = console(project, "check", "--config", "selct = ['ES109']")
    assert bad.returncode == 2 and "unknown key" in bad.stderr
    missing = console(project, "check", "--config", "missing.toml")
    assert (
        missing.returncode == 2 and "missing.toml: invalid configuration: cannot" in missing.stderr
    )
    neither = console(project, "check", "--config", "select = [")
    assert neither.returncode == 2 and "not a file, nor a TOML" in neither.stderr


def test_show_settings_names_the_overrides_origin(project: Path) -> None:
    run = console(
        project,
        "check",
        "--show-settings",
        "jobs/nightly.py",
        "--config",
        "ignore = ['ES101']",
        "--per-file-ignores",
        "jobs/*:ES109,ES102",
    )
    assert "ES101: by --config ignore" in run.stdout
    assert "ES102, ES109: by --per-file-ignores" in run.stdout
    as_json = console(
        project,
        "check",
        "--show-settings",
        "jobs/nightly.py",
        "--config",
        "ignore=['ES101']",
        "--output-format",
        "json",
    )
    overrides = json.loads(as_json.stdout)["command_line"]["overrides"]
    assert overrides == [{"key": "ignore", "value": ["ES101"], "from": "--config"}]
    strict = console(project, "check", "--show-settings", "jobs", "--config", "strict = true")
    assert "strict = true (--config)" in strict.stdout
    # and the override is obeyed, not only shown: a skipped path now fails the run
    (project / "jobs" / "huge.py").write_bytes(b"x = 1\n" * 400_000)
    failed = console(project, "check", "jobs/huge.py", "--config", "strict = true")
    assert failed.returncode == 1 and "skipped" in failed.stdout


def test_extend_reads_the_base_relative_to_the_file_and_reports_cycles(project: Path) -> None:
    shared = project.parent / "shared"
    shared.mkdir()
    (shared / "base.toml").write_text(
        'ignore = ["ES102"]\nextend-exclude = ["tests"]\n', encoding="utf-8"
    )
    (project / "evalsubmit.toml").write_text(
        'extend = "../shared/base.toml"\nextend-select = ["ES1"]\n', encoding="utf-8"
    )
    run = console(project, "check", "--no-cache")
    # extend-select ES1 turns the base's ignore back on; the base's `tests` pattern still
    # means any folder named tests below it (ruff's rule for an extended file's patterns)
    assert codes(run.stdout) == ["ES101", "ES102", "ES109"]
    (project / "evalsubmit.toml").write_text('extend = "../shared/base.toml"\n', encoding="utf-8")
    assert codes(console(project, "check", "--no-cache").stdout) == ["ES101", "ES109"]
    (shared / "base.toml").write_text('extend = "../team/evalsubmit.toml"\n', encoding="utf-8")
    cycle = console(project, "check", "--no-cache")
    assert cycle.returncode == 2 and "extends itself in a cycle" in cycle.stderr


def test_exclude_extend_exclude_and_per_file_ignores_flags(project: Path) -> None:
    assert codes(console(project, "check", "--exclude", "tests,jobs/legacy.py").stdout) == [
        "ES101",
        "ES102",
        "ES109",
    ]
    extended = console(project, "check", "--extend-exclude", "tests")
    assert codes(extended.stdout) == ["ES101", "ES102", "ES109"]
    ignored = console(project, "check", "--per-file-ignores", "jobs/*:ES102,ES101")
    assert codes(ignored.stdout) == ["ES103", "ES109"]
    (project / "evalsubmit.toml").write_text(
        '[per-file-ignores]\n"tests/*" = ["ES103"]\n', encoding="utf-8"
    )
    replaced = console(project, "check", "-n", "--per-file-ignores", "jobs/*:ES109")
    assert codes(replaced.stdout) == ["ES101", "ES102", "ES103"]
    added = console(project, "check", "-n", "--extend-per-file-ignores", "jobs/*:ES109")
    assert codes(added.stdout) == ["ES101", "ES102"]


def test_stdin_filename_without_dash_and_force_exclude(project: Path) -> None:
    source = (project / "jobs" / "runners.py").read_text(encoding="utf-8")
    run = subprocess.run(
        [str(ROOT / ".venv/bin/evalsubmit"), "check", "--stdin-filename", "jobs/runners.py"],
        input=source,
        capture_output=True,
        text=True,
        cwd=project,
        check=False,
    )
    assert run.returncode == 1 and codes(run.stdout) == ["ES109"]
    excluded = subprocess.run(
        [
            str(ROOT / ".venv/bin/evalsubmit"),
            "check",
            "--force-exclude",
            "--exclude",
            "jobs",
            "--stdin-filename",
            "jobs/runners.py",
        ],
        input=source,
        capture_output=True,
        text=True,
        cwd=project,
        check=False,
    )
    assert (excluded.returncode, excluded.stdout) == (0, "")


def test_rule_by_name_all_and_json() -> None:
    by_name = console(ROOT, "rule", "mixed-shape")
    assert by_name.returncode == 0 and by_name.stdout.startswith("# mixed-shape (ES101)")
    every = console(ROOT, "rule", "--all")
    assert every.stdout.count("\n# ") + 1 >= 11
    one = json.loads(console(ROOT, "rule", "--output-format", "json", "ES109").stdout)
    ruff_keys = {"name", "code", "linter", "summary", "message_formats", "fix"}
    assert ruff_keys | {"fix_availability", "explanation", "preview"} <= one.keys()
    listed = json.loads(console(ROOT, "rule", "--all", "--output-format", "json").stdout)
    assert [rule["code"] for rule in listed][:2] == ["ES100", "ES101"]


def test_bash_completion_is_valid_and_completes_output_options(tmp_path: Path) -> None:
    script = tmp_path / "evalsubmit.bash"
    script.write_text(console(ROOT, "generate-shell-completion", "bash").stdout)
    assert subprocess.run(["bash", "-n", str(script)], check=False).returncode == 0
    probe = (
        f"source {script}; COMP_WORDS=(evalsubmit check --out); COMP_CWORD=2; "
        '_evalsubmit; echo "${COMPREPLY[@]}"'
    )
    done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, check=True)
    assert "--output-format" in done.stdout.split()
    for shell in ("zsh", "fish"):
        assert "check" in console(ROOT, "generate-shell-completion", shell).stdout


def test_usage_error_prints_the_subcommands_usage(project: Path) -> None:
    run = console(project, "check", "--bogus")
    assert run.returncode == 2 and run.stderr.startswith("usage: evalsubmit check")
    rule = console(project, "rule", "--bogus")
    assert rule.stderr.startswith("usage: evalsubmit rule")


def test_watch_checks_again_after_an_edit(project: Path) -> None:
    watched = _watch(project, "jobs")
    try:
        first = _until(watched, "Found")
        assert "ES109" in first
        time.sleep(0.1)
        runners = project / "jobs" / "runners.py"
        runners.write_text(runners.read_text().replace('{"CUDA_VISIBLE_DEVICES": 0}', '{"X": "0"}'))
        second = _until(watched, "Found")
        assert "ES109" not in second and "ES102" in second
    finally:
        watched.terminate()
        assert watched.wait(timeout=20) == 0


def test_watch_checks_again_when_a_configuration_outside_the_paths_changes(
    project: Path, tmp_path: Path
) -> None:
    shared = tmp_path / "shared" / "lint.toml"
    shared.parent.mkdir()
    shared.write_text('select = ["ALL"]\n', encoding="utf-8")
    watched = _watch(project, "--config", str(shared), "jobs")
    try:
        assert "ES109" in _until(watched, "Found")
        time.sleep(0.1)
        shared.write_text('select = ["ALL"]\nignore = ["ES109"]\n', encoding="utf-8")
        again = _until(watched, "Found")
        assert "ES109" not in again and "ES102" in again
    finally:
        watched.terminate()
        assert watched.wait(timeout=20) == 0


def test_watch_checks_again_after_a_notebook_is_edited(project: Path) -> None:

    imports = "from nemo_platform import NeMoPlatform\nclient = NeMoPlatform(workspace='qa')\n"
    mixed = "client.evaluator.submit(tasks='qa/smoke', metric='m', dataset='qa/d')\n"
    (project / "notes").mkdir()
    explore = write(project / "notes" / "explore.ipynb", notebook(code(imports), code("x = 1\n")))
    watched = _watch(project, "notes")
    try:
        assert "ES101" not in _until(watched, "All checks passed")
        time.sleep(0.1)
        write(explore, notebook(code(imports), code(mixed)))
        assert "explore.ipynb:cell 2:1:18: ES101" in _until(watched, "Found")
    finally:
        watched.terminate()
        assert watched.wait(timeout=20) == 0


_OUTPUT: dict[int, queue.Queue[str]] = {}
"""Each watch's output lines, read by a thread of its own (a bare ``readline`` would wait
forever on a watch that never checks again)."""


def _watch(project: Path, *args: str) -> subprocess.Popen[str]:
    """``evalsubmit check --watch --no-cache ARGS`` running in ``project``."""
    process = subprocess.Popen(
        [str(ROOT / ".venv/bin/evalsubmit"), "check", "--watch", "--no-cache", *args],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "VIRTUAL_ENV": ""},
    )
    lines = _OUTPUT[process.pid] = queue.Queue()
    stdout = process.stdout
    assert stdout is not None

    def read() -> None:
        for line in stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    return process


def _until(process: subprocess.Popen[str], marker: str) -> str:
    """The output up to the first line starting with ``marker``; fails after 60 s."""
    seen: list[str] = []
    deadline = time.monotonic() + 60
    while (left := deadline - time.monotonic()) > 0:
        try:
            line = _OUTPUT[process.pid].get(timeout=left)
        except queue.Empty:
            break
        seen.append(line)
        if line.startswith(marker):
            return "".join(seen)
    raise AssertionError(f"no {marker!r} line within 60 s: {''.join(seen)}")


@pytest.mark.parametrize(
    "flag",
    [
        ["--fixable", "ES1"],
        ["--unfixable", "ES1"],
        ["--extend-fixable", "ES1"],
        ["--target-version", "py312"],
        ["--preview"],
        ["--extension", "ipy:python"],
        ["--color", "never"],
    ],
)
def test_unsupported_ruff_flags_are_usage_errors(project: Path, flag: list[str]) -> None:
    """The README's "not supported" rows: refused with check's usage, never silently taken."""
    run = console(project, "check", *flag)
    assert run.returncode == 2
    assert run.stderr.startswith("usage: evalsubmit check")
    assert f"unrecognized arguments: {flag[0]}" in run.stderr
