"""``evalsubmit check --show-settings PATH``: the settings of one path and where each came from,
in a realistic repository: a ``pyproject.toml`` with ``[tool.evalsubmit]``, a sub-folder's
``.evalsubmit.toml`` that silences everything, ``.git``, and an ``evalsubmit.toml`` above the
repository that must not apply. Text and JSON, ``--config``, an invalid file (exit 2), and
never an analysis."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path
from typing import Any

import pytest

from evalsubmit.analysis import config_resolver, configured_options
from evalsubmit.analysis.rules import RULES
from evalsubmit.cli import main
from evalsubmit.workspace.config import RuleSelection

MIXED = """\
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
client = NeMoPlatform(workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa team/x"), target=None, metric=1)
"""
PYPROJECT = """\
[project]
name = "team-evals"
version = "1.0"

[tool.evalsubmit]
ignore = ["ES108"]
extend-exclude = ["build/"]
default-taskset = "qa/smoke"
sdk-version = "0.6.0"

[tool.evalsubmit.per-file-ignores]
"tests/**" = ["ES110"]
"""
ALL = sorted(RULES)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A team's repository, inside a folder whose own evalsubmit.toml silences everything."""
    write(tmp_path / "evalsubmit.toml", 'ignore = ["ES"]\n')  # above the repository
    root = tmp_path / "team-evals"
    (root / ".git").mkdir(parents=True)
    write(root / "pyproject.toml", PYPROJECT)
    write(root / "scripts" / ".evalsubmit.toml", "select = []  # one-off scripts\n")
    for name in ("src/evals/nightly.py", "scripts/rerun.py", "tests/test_nightly.py"):
        write(root / name, MIXED)
    write(root / "build" / "lib" / "nightly.py", MIXED)
    monkeypatch.chdir(root)
    # it reads configuration, nothing else: no file is analysed
    monkeypatch.setattr("evalsubmit.cli.check._cached_or_analysed", _never)
    monkeypatch.setattr("evalsubmit.cli.projects.relevant", _never)
    return root


def _never(*args: object, **kwargs: object) -> Any:
    raise AssertionError("--show-settings analysed a file")


def show(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["check", "--show-settings", *argv]) == 0, capsys.readouterr().err
    captured = capsys.readouterr()
    assert captured.err == ""
    return captured.out


def show_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    settings: dict[str, Any] = json.loads(show(capsys, "--output-format", "json", *argv))
    return settings


def test_text_names_every_file_and_what_turned_each_rule_off(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    above = repo.parent / "evalsubmit.toml"
    out = show(capsys, "scripts/rerun.py")
    assert out.startswith("Settings for scripts/rerun.py (file)\n"), out
    assert (
        "Configuration files (nearest first):\n"
        "  scripts/.evalsubmit.toml: applies\n"
        "  pyproject.toml: not used: a nearer file applies (files are not merged)\n"
        f"  {above}: not used: above the repository root\n"
        f"Repository root: {repo} (the search stops there)\n"
        "In effect: scripts/.evalsubmit.toml\n"
    ) in out
    assert "  select = []\n" in out
    assert "  enabled (0): none\n" in out
    assert (
        f"  turned off ({len(ALL)}):\n    {', '.join(ALL)}: by select in scripts/.evalsubmit.toml\n"
        in out
    )
    assert "  excluded: no\n" in out
    assert "Command-line overrides: none\n" in out

    out = show(capsys, "--ignore", "ES101", "tests/test_nightly.py")
    assert (
        "Configuration files (nearest first):\n"
        "  pyproject.toml: applies\n"
        f"  {above}: not used: above the repository root\n"
    ) in out
    assert '  ignore = ["ES108"]\n' in out
    assert (
        "  enabled (11): ES100, ES102, ES103, ES104, ES105, ES106, ES107, ES109, ES111, ES190, "
        "ES191\n"
    ) in out
    assert (
        "  turned off (3):\n"
        "    ES101: by --ignore\n"
        "    ES108: by ignore in pyproject.toml\n"
        '    ES110: by per-file-ignores "tests/**" in pyproject.toml\n'
        "  per-file-ignores that apply to this file:\n"
        '    "tests/**" = ["ES110"]\n'
    ) in out
    assert '  extend-exclude = ["build/"]\n' in out
    assert '  default-taskset = "qa/smoke"\n  sdk-version = "0.6.0"\n' in out
    assert "  strict = false (default)\n" in out
    assert out.endswith("Command-line overrides: --ignore ES101\n")


def test_json(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    above = str(repo.parent / "evalsubmit.toml")
    pyproject = str(repo / "pyproject.toml")
    settings = show_json(capsys, "--select", "ES1", "--ignore", "ES101", "tests/test_nightly.py")
    assert settings == {
        "version": 1,
        "path": str(repo / "tests" / "test_nightly.py"),
        "is_folder": False,
        "config_file": pyproject,
        "config_files": [
            {"file": pyproject, "status": "applied"},
            {"file": above, "status": "above-repository"},
        ],
        "repository_root": str(repo),
        "select": None,
        "extend_select": [],
        "ignore": ["ES108"],
        # --select replaces the file's choice (its ignore too); per-file-ignores still apply
        "enabled": [c for c in ALL if c not in ("ES101", "ES110")],
        "disabled": [
            {"code": "ES101", "by": "--ignore", "file": None, "pattern": None},
            {"code": "ES110", "by": "per-file-ignores", "file": pyproject, "pattern": "tests/**"},
        ],
        "per_file_ignores": [{"pattern": "tests/**", "codes": ["ES110"]}],
        "exclude": [],
        "extend_exclude": ["build/"],
        "excluded": None,
        "checked_when_named": True,
        "default_taskset": "qa/smoke",
        "sdk_version": "0.6.0",
        "strict": False,
        "strict_from": None,
        "command_line": {
            "select": ["ES1"],
            "extend_select": [],
            "ignore": ["ES101"],
            "config": None,
            "isolated": False,
            "force_exclude": False,
            "strict": False,
            "overrides": [],
        },
    }


@pytest.mark.parametrize(
    "argv",
    [
        (),
        ("--select", "ES10"),
        ("--extend-select", "ES108"),
        ("--ignore", "ES1", "--select", "ES11"),
    ],
)
@pytest.mark.parametrize(
    "name", ["scripts/rerun.py", "tests/test_nightly.py", "src/evals/nightly.py"]
)
def test_the_rules_shown_are_the_rules_checked(
    repo: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...], name: str
) -> None:
    """What it says is on is what ``check`` turns on (the same layers, replayed)."""
    settings = show_json(capsys, *argv, name)
    flags = dict(zip(argv[::2], argv[1::2], strict=True))
    layer = RuleSelection(
        select=frozenset(flags["--select"].split(",")) if "--select" in flags else None,
        extend_select=frozenset([flags["--extend-select"]])
        if "--extend-select" in flags
        else frozenset(),
        ignore=frozenset([flags["--ignore"]]) if "--ignore" in flags else frozenset(),
    )
    path = repo / name
    options = configured_options(config_resolver().for_path(path), path, [layer])
    assert settings["enabled"] == [code for code in ALL if options.enabled(code)]
    assert sorted(settings["enabled"] + [d["code"] for d in settings["disabled"]]) == ALL


def test_a_folder_and_an_excluded_path(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = show_json(capsys, "scripts")
    assert settings["is_folder"] is True
    assert settings["config_file"] == str(repo / "scripts" / ".evalsubmit.toml")
    assert settings["enabled"] == []

    settings = show_json(capsys, "build/lib/nightly.py")
    assert settings["excluded"] == {
        "by": "extend-exclude",
        "path": str(repo / "build"),
        "file": str(repo / "pyproject.toml"),
        "pattern": "build/",
    }
    assert settings["checked_when_named"] is True
    assert show_json(capsys, "--force-exclude", "build")["checked_when_named"] is False
    out = show(capsys, "build/lib/nightly.py")
    assert (
        '  excluded: yes (its folder build), by extend-exclude "build/" in pyproject.toml '
        "(the walk leaves it out)\n  named on the command line: checked\n"
    ) in out


def test_config_option(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    ci = write(repo / "ci" / "evalsubmit.toml", 'select = ["ES108"]\nstrict = true\n')
    settings = show_json(capsys, "--config", "ci/evalsubmit.toml", "scripts/rerun.py")
    assert settings["config_file"] == str(ci)
    assert settings["config_files"] == [
        {"file": str(ci), "status": "applied"},
        {"file": str(repo / "scripts" / ".evalsubmit.toml"), "status": "config-flag"},
        {"file": str(repo / "pyproject.toml"), "status": "config-flag"},
        {"file": str(repo.parent / "evalsubmit.toml"), "status": "config-flag"},
    ]
    assert settings["enabled"] == ["ES108"]
    assert settings["disabled"][0] == {
        "code": "ES100",
        "by": "select",
        "file": str(ci),
        "pattern": None,
    }
    assert (settings["strict"], settings["strict_from"]) == (True, str(ci))
    assert settings["command_line"]["config"] == str(ci)
    out = show(capsys, "--config", "ci/evalsubmit.toml", "scripts/rerun.py")
    assert "  scripts/.evalsubmit.toml: not used: --config names the file to use\n" in out
    assert out.endswith(f"Command-line overrides: --config {ci}\n")

    settings = show_json(capsys, "--isolated", "scripts/rerun.py")
    assert settings["config_file"] is None
    assert {f["status"] for f in settings["config_files"]} == {"isolated"}
    assert settings["enabled"] == ALL


def test_an_invalid_file_is_an_error(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = write(repo / "scripts" / ".evalsubmit.toml", 'select = []\nignore = ["ES909"]\n')
    assert main(["check", "--show-settings", "scripts/rerun.py"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == (
        f"evalsubmit: {broken}:2: invalid configuration: ignore[0]: unknown rule code 'ES909' "
        "(did you mean 'ES109'?)\n"
    )


def test_stdin_and_usage_errors(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # the path stdin would be checked as (stdin is not read)
    settings = show_json(capsys, "--stdin-filename", "scripts/new.py", "-")
    assert settings["path"] == str(repo / "scripts" / "new.py")
    assert settings["enabled"] == []
    for argv, message in [
        (["src", "tests"], "give exactly one"),
        (["--fix", "src"], "cannot be combined with --fix"),
        (["--output-format", "sarif", "src"], "prints text, or JSON"),
        (["nowhere.py"], "no such file or directory: nowhere.py"),
    ]:
        assert main(["check", "--show-settings", *argv]) == 2
        assert message in capsys.readouterr().err
    assert main(["check", "--show-set", "src"]) == 2  # no abbreviation
    write(repo / "--show-settings", "")  # a file a shell's glob would make an option
    assert main(["check", "--show-settings", "src"]) == 2
    assert "is a file in this folder and also an option" in capsys.readouterr().err


def test_output_file(repo: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = repo / "out" / "settings.json"
    assert show(capsys, "--output-format", "json", "--output-file", str(report), "src") == ""
    assert json.loads(report.read_text())["config_file"] == str(repo / "pyproject.toml")
