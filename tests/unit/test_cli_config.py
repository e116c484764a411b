"""``evalsubmit check`` with the project's configuration file: each key, the flags over it
(``--select`` replaces, ``--extend-select``/``--ignore`` add, ``--config``, ``--isolated``,
``--force-exclude``), nested projects in one run, and an invalid file (exit 2, never a default)."""

from __future__ import annotations

import json
import os
import textwrap
from pathlib import Path

import pytest

from evalsubmit.cli import main
from evalsubmit.sdk.version import SDK_VERSION
from fake_env import sdk_env

HEADER = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
client = NeMoPlatform(workspace="qa")
"""
MIXED = HEADER + 'client.evaluator.submit(tasks=TasksetRef("qa team/x"), target=None, metric=1)\n'
"""ES101 (both shapes) and ES108 (a space in the taskset reference), on line 4."""


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A team's evaluation project, checked from its root as CI does."""
    root = tmp_path / "team-evals"
    write(root / "pyproject.toml", '[project]\nname = "team-evals"\nversion = "1.0"\n')
    write(root / "src" / "evals" / "__init__.py", "")
    write(root / "src" / "evals" / "nightly.py", MIXED)
    write(root / "tests" / "test_nightly.py", MIXED)
    write(root / "scripts" / "rerun.py", MIXED)
    monkeypatch.chdir(root)
    return root


def configure(root: Path, table: str) -> None:
    text = (root / "pyproject.toml").read_text().split("[tool.evalsubmit]")[0]
    write(root / "pyproject.toml", text + "[tool.evalsubmit]\n" + textwrap.dedent(table))


def check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, list[str]]]:
    """Exit code and the codes found per file (relative paths, as given)."""
    code = main(["check", "--format", "json", *argv])
    captured = capsys.readouterr()
    assert code in (0, 1), captured.err
    found: dict[str, list[str]] = {}
    for finding in json.loads(captured.out)["findings"]:
        found.setdefault(finding["path"], []).append(finding["code"])
    return code, found


NIGHTLY, TESTS, SCRIPTS = "src/evals/nightly.py", "tests/test_nightly.py", "scripts/rerun.py"


def test_select_and_ignore_and_the_flags_over_them(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert check(capsys, "src")[1] == {NIGHTLY: ["ES101", "ES108"]}
    configure(project, 'select = ["ES1"]\nignore = ["ES108"]\n')
    assert check(capsys, "src")[1] == {NIGHTLY: ["ES101"]}
    # --select replaces the file's choice (its ignore too); --ignore adds to it
    assert check(capsys, "--select", "ES108", "src")[1] == {NIGHTLY: ["ES108"]}
    assert check(capsys, "--ignore", "ES101", "src") == (0, {})


def test_extend_select(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(project, 'select = ["ES101"]\n')
    assert check(capsys, "src")[1] == {NIGHTLY: ["ES101"]}
    assert check(capsys, "--extend-select", "ES108", "src")[1] == {NIGHTLY: ["ES101", "ES108"]}
    configure(project, 'select = ["ES101"]\nextend-select = ["ES108"]\n')
    assert check(capsys, "src")[1] == {NIGHTLY: ["ES101", "ES108"]}


def test_per_file_ignores(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(
        project,
        """\
        [tool.evalsubmit.per-file-ignores]
        "tests/**" = ["ES108"]
        "scripts/*.py" = ["ES1"]
        """,
    )
    assert check(capsys, ".")[1] == {NIGHTLY: ["ES101", "ES108"], TESTS: ["ES101"]}


def test_exclude_applies_to_the_walk_not_to_files_named(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / "build" / "lib" / "evals" / "nightly.py", MIXED)
    write(project / "src" / "evals" / "suites_generated.py", MIXED)
    configure(project, 'exclude = ["build/"]\nextend-exclude = ["*_generated.py", "scripts"]\n')
    assert set(check(capsys, ".")[1]) == {NIGHTLY, TESTS}
    named = "build/lib/evals/nightly.py"
    assert set(check(capsys, ".", named)[1]) == {NIGHTLY, TESTS, named}
    assert set(check(capsys, "--force-exclude", ".", named)[1]) == {NIGHTLY, TESTS}
    assert check(capsys, "--force-exclude", "scripts") == (0, {})


def test_nested_projects_each_use_their_own_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(project, 'ignore = ["ES108"]\n')
    gymkit = project / "libs" / "gymkit"
    write(gymkit / "evalsubmit.toml", 'ignore = ["ES101"]\n')
    write(gymkit / "gymkit" / "runners.py", MIXED)
    write(project / "services" / "api" / "pyproject.toml", '[project]\nname = "api"\n')
    write(project / "services" / "api" / "jobs.py", MIXED)
    _, found = check(capsys, "libs", "services", "src")
    assert found == {
        "libs/gymkit/gymkit/runners.py": ["ES108"],
        "services/api/jobs.py": ["ES101"],  # no table there: the root's file governs it
        NIGHTLY: ["ES101"],
    }


def test_config_and_isolated(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    configure(project, 'ignore = ["ES108"]\n')
    other = write(project.parent / "ci" / "evalsubmit.toml", 'select = ["ES108"]\n')
    assert check(capsys, "src")[1] == {NIGHTLY: ["ES101"]}
    assert check(capsys, "--config", str(other), "src")[1] == {NIGHTLY: ["ES108"]}
    assert check(capsys, "--isolated", "src")[1] == {NIGHTLY: ["ES101", "ES108"]}
    assert check(capsys, "--no-config", "src")[1] == {NIGHTLY: ["ES101", "ES108"]}


def test_strict_from_the_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.mkfifo(project / "src" / "evals" / "pipe.py")  # never read: skipped with a warning
    assert main(["check", "--ignore", "ES1", "src"]) == 0
    configure(project, "strict = true\n")
    assert main(["check", "--ignore", "ES1", "src"]) == 1
    out = capsys.readouterr().out
    assert "pipe.py: warning: skipped" in out


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        (
            'select = "ES101"\n',
            ":5: invalid configuration: [tool.evalsubmit] select: expected a list of strings, "
            "got 'ES101'",
        ),
        (
            'ignore = ["ES1", "ES909"]\n',
            ":5: invalid configuration: [tool.evalsubmit] ignore[1]: unknown rule code 'ES909' "
            "(did you mean 'ES109'?)",
        ),
        (
            'per-file-ignore = {"tests/**" = ["ES108"]}\n',
            ":5: invalid configuration: [tool.evalsubmit] per-file-ignore: unknown key "
            "(did you mean 'per-file-ignores'?)",
        ),
    ],
)
def test_an_invalid_file_is_a_usage_error(
    project: Path, capsys: pytest.CaptureFixture[str], table: str, expected: str
) -> None:
    configure(project, table)
    assert main(["check", "src"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"evalsubmit: {project / 'pyproject.toml'}{expected}\n"


def test_an_invalid_file_found_by_the_walk_stops_the_run(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    broken = write(project / "libs" / "gymkit" / "evalsubmit.toml", "sdk-version = 0.7\n")
    write(project / "libs" / "gymkit" / "gymkit" / "runners.py", MIXED)
    assert main(["check", "."]) == 2
    assert capsys.readouterr().err == (
        f"evalsubmit: {broken}:1: invalid configuration: sdk-version: expected a string, "
        "got float 0.7\n"
    )
    assert main(["check", "--isolated", "."]) == 1  # --isolated reads no file at all


def test_a_missing_config_option_file_is_a_usage_error(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--config", "nowhere.toml", "src"]) == 2
    assert "nowhere.toml: invalid configuration: cannot read it" in capsys.readouterr().err


def test_sdk_version_stands_for_the_installed_one(
    project: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    python = str(sdk_env(tmp_path / "venv", nemo_platform="0.7.1"))
    installed = f"rules are for nemo-platform {SDK_VERSION}; 0.7.1 is installed"
    code = main(["check", "--python", python, "--select", "ES111", "src"])
    assert code == 0 and f"Note: {installed}: results may differ." in capsys.readouterr().out
    configure(project, f'sdk-version = "{SDK_VERSION}"\n')  # "we pin the release the rules know"
    assert main(["check", "--python", python, "--select", "ES111", "src"]) == 0
    assert capsys.readouterr().out == "All checks passed (2 files).\n"
    configure(project, 'sdk-version = "0.8.0rc1"\n')
    _, found = check(capsys, "--python", python, "--select", "ES111", "src")
    assert found == {NIGHTLY: ["ES111"]}
    main(["check", "--select", "ES111", "src"])
    declared = f"rules are for nemo-platform {SDK_VERSION}; 0.8.0rc1 is declared (sdk-version)"
    assert f"Note: {declared}: results may differ." in capsys.readouterr().out


@pytest.mark.parametrize("name", ["evalsubmit.toml", ".evalsubmit.toml", "pyproject.toml"])
def test_a_file_that_is_not_utf8_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    """TOML is UTF-8: a Latin-1 ``ignore`` read with replacement characters would be another
    value than the one written, so the file is an error naming it and the reason."""
    table = "[tool.evalsubmit]\n" if name == "pyproject.toml" else ""
    (project / name).write_bytes(f'{table}ignore = ["ES110"] # caf\xe9\n'.encode("latin-1"))
    assert main(["check", "src"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"evalsubmit: {project / name}: invalid configuration: not UTF-8")
    assert "byte 0xe9" in err


def test_a_foreign_pyproject_that_is_not_utf8_is_passed_over(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A pyproject.toml that never mentions evalsubmit configures nothing: still passed over."""
    (project / "pyproject.toml").write_bytes('[project]\nname = "caf\xe9"\n'.encode("latin-1"))
    code, _ = check(capsys, "src")
    assert code == 1


@pytest.mark.parametrize(
    "table",
    ["select = []\n", 'ignore = ["ES"]\n', '[per-file-ignores]\n"!x" = ["ES"]\n'],
)
def test_a_configuration_that_turns_every_rule_off_says_so(
    project: Path, capsys: pytest.CaptureFixture[str], table: str
) -> None:
    """Silencing a folder is allowed, but never invisible: the summary and the JSON name the
    file and count what it turned off (and say nothing when nothing was)."""
    quiet = write(project / "scripts" / ".evalsubmit.toml", table)
    assert main(["check", "."]) == 1
    summary = capsys.readouterr().out.splitlines()[-2]  # before ruff's line about fixes
    assert summary.endswith(
        "Configuration scripts/.evalsubmit.toml turned off every rule in 1 file."
    ), summary
    assert main(["check", "--output-format", "json", "."]) == 1
    effects = json.loads(capsys.readouterr().out)["configuration_effects"]
    assert effects == [{"file": str(quiet), "files_all_rules_off": 1, "paths_excluded": 0}]
    quiet.unlink()
    assert main(["check", "."]) == 1
    assert "Configuration" not in capsys.readouterr().out


def test_an_exclude_says_how_many_paths_it_left_out(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(project / "scripts" / ".evalsubmit.toml", 'exclude = ["*"]\n')
    assert main(["check", "scripts"]) == 0
    summary = capsys.readouterr().out.splitlines()[-1]
    assert summary == (
        "No Python files found: nothing was checked. "
        "Configuration scripts/.evalsubmit.toml excluded 1 path."
    )


def test_a_file_above_the_repository_never_excludes_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``exclude = ["*"]`` in an ``evalsubmit.toml`` above the repository root (a shared folder)
    must not leave the repository out, not even its root named with ``--force-exclude`` (the
    root's parent is outside the repository)."""
    (project / ".git").mkdir()
    write(project.parent / "evalsubmit.toml", 'exclude = ["*"]\nignore = ["ES"]\n')
    for argv in ([], ["--force-exclude"]):
        for root in (".", str(project)):
            assert main(["check", *argv, root]) == 1, (argv, root)
            summary = capsys.readouterr().out.splitlines()[-2]  # before the fixes line
            assert summary == "Found 6 problems in 3 files.", (argv, root, summary)
