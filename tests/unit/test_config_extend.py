"""``extend`` in a configuration file, the command line's overrides and ``ALL``, at the level
of the resolver the CLI and the server share (:mod:`evalsubmit.workspace.config`)."""

from __future__ import annotations

import os
import textwrap
import time
from pathlib import Path

import pytest

from evalsubmit.analysis import config_resolver, configured_options
from evalsubmit.workspace.config import ConfigError
from evalsubmit.workspace.config_merge import Overrides, rebase


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


@pytest.fixture
def team(tmp_path: Path) -> Path:
    """A repository with a shared base configuration and two projects extending it."""
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    write(
        root / "shared" / "evalsubmit.toml",
        """\
        ignore = ["ES110", "ES1"]
        extend-exclude = ["generated", "shared/legacy/*.py"]
        default-taskset = "qa/smoke"

        [per-file-ignores]
        "tests/*" = ["ES103"]
        """,
    )
    write(
        root / "evals" / "pyproject.toml",
        """\
        [project]
        name = "evals"

        [tool.evalsubmit]
        extend = "../shared/evalsubmit.toml"
        extend-select = ["ES101"]
        extend-exclude = ["scratch"]
        sdk-version = "0.6.0"
        """,
    )
    write(root / "evals" / "jobs" / "nightly.py", "")
    return root


def test_the_base_is_read_first_and_the_file_applies_over_it(team: Path) -> None:
    resolver = config_resolver()
    config = resolver.for_path(team / "evals" / "jobs" / "nightly.py")
    assert config.file == team / "evals" / "pyproject.toml"
    assert config.extends == (team / "shared" / "evalsubmit.toml",)
    assert config.default_taskset == "qa/smoke" and config.sdk_version == "0.6.0"
    # extend-exclude adds to the base's; the base's path pattern cannot match under evals/
    assert config.extend_exclude == ("generated", "scratch")
    options = configured_options(config, team / "evals" / "jobs" / "nightly.py")
    # the base ignores ES1 (every rule); extend-select turns ES101 back on, ES110 stays off
    assert options.enabled("ES101") and not options.enabled("ES102")
    assert not options.enabled("ES110")
    tests = configured_options(config, team / "evals" / "tests" / "test_x.py")
    assert not tests.enabled("ES103") and tests.enabled("ES101")


def test_the_server_sees_an_edit_of_the_base(team: Path) -> None:
    resolver = config_resolver()  # the server's: no folder remembered, files by mtime
    path = team / "evals" / "jobs" / "nightly.py"
    assert resolver.for_path(path).default_taskset == "qa/smoke"
    base = team / "shared" / "evalsubmit.toml"
    text = base.read_text().replace("qa/smoke", "qa/nightly")
    time.sleep(0.01)
    base.write_text(text)
    os.utime(base, ns=(time.time_ns(), time.time_ns() + 10_000_000))
    assert resolver.for_path(path).default_taskset == "qa/nightly"


def test_a_cycle_and_a_missing_base_are_errors_naming_the_file(team: Path) -> None:
    write(team / "shared" / "evalsubmit.toml", 'extend = "../evals/pyproject.toml"\n')
    with pytest.raises(ConfigError) as cycle:
        config_resolver().for_path(team / "evals" / "jobs" / "nightly.py")
    message = str(cycle.value)
    assert "extend: extends itself in a cycle:" in message
    assert message.count("pyproject.toml") >= 2 and "shared/evalsubmit.toml" in message
    write(team / "shared" / "evalsubmit.toml", 'extend = "nowhere.toml"\n')
    with pytest.raises(ConfigError, match="no such file"):
        config_resolver().for_path(team / "evals" / "jobs" / "nightly.py")


def test_overrides_replace_keys_or_stand_alone(team: Path, tmp_path: Path) -> None:
    overrides = Overrides(
        replace={"select": ["ALL"], "ignore": ["ES109"]},
        extend={"extend-exclude": ("more",)},
        origins={"select": "--config", "ignore": "--config", "extend-exclude": "--extend-exclude"},
    )
    resolver = config_resolver(overrides=overrides)
    config = resolver.for_path(team / "evals" / "jobs" / "nightly.py")
    assert config.extend_exclude == ("generated", "scratch", "more")
    assert config.overridden["select"] == "--config"
    options = configured_options(config, team / "evals" / "jobs" / "nightly.py")
    assert options.enabled("ES110") and not options.enabled("ES109")
    alone = resolver.for_path(tmp_path / "elsewhere" / "job.py")  # no file: the overrides
    assert alone.file is None and alone.selection.ignore == frozenset({"ES109"})


@pytest.mark.parametrize(
    ("pattern", "base", "root", "expected"),
    [
        ("generated", "/r/shared", "/r/evals", "generated"),  # a name: at any depth
        ("!generated", "/r/shared", "/r/evals", "!generated"),
        ("evals/old/*.py", "/r", "/r/evals", "old/*.py"),  # base above: prefix dropped
        ("/evals/old/", "/r", "/r/evals", "old/"),
        ("tests/*.py", "/r", "/r/evals", None),  # another folder's: matches nothing here
        ("jobs/*.py", "/r/evals", "/r", "evals/jobs/*.py"),  # base below: prefix added
        ("jobs/*.py", "/r/shared", "/r/evals", None),  # beside
        ("**/gen/*.py", "/r", "/r/evals", "**/gen/*.py"),
    ],
)
def test_patterns_keep_their_meaning(
    pattern: str, base: str, root: str, expected: str | None
) -> None:
    assert rebase(pattern, base, root) == expected
