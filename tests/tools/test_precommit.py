"""The pre-commit hook (``.pre-commit-hooks.yaml``) as a project uses it: ``pre-commit
try-repo`` installs evalsubmit from this repository into pre-commit's own environment and runs
the hook on a fixture repository's files."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
CACHE = REPO / ".cache" / "pre-commit"

BROKEN = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m")
)
NeMoPlatform(workspace="qa").evaluator.submit(
    tasks=TasksetRef("qa/smoke"), target=runner, config=RunConfig(parallelism=4)
)
"""


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def _try_repo(project: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(CACHE), "PRE_COMMIT_COLOR": "never"}
    env["XDG_CACHE_HOME"] = str(project.parent / "user-cache")  # the result cache's key
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(REPO), "evalsubmit", "--all-files"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_the_hook_fails_a_commit_with_a_broken_submission_and_passes_it_fixed(
    tmp_path: Path,
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    _git(project, "config", "user.email", "dev@example.com")
    _git(project, "config", "user.name", "dev")
    (project / "jobs").mkdir()
    (project / "jobs" / "nightly.py").write_text(BROKEN, encoding="utf-8")
    (project / "README.md").write_text("not Python: the hook never sees it\n", encoding="utf-8")
    _git(project, "add", ".")

    broken = _try_repo(project)
    assert broken.returncode == 1, broken.stdout + broken.stderr
    assert "jobs/nightly.py:10:50: ES102" in broken.stdout, broken.stdout
    assert "README.md" not in broken.stdout.split("evalsubmit....")[-1]

    fixed = BROKEN.replace(", config=RunConfig(parallelism=4)", "")
    (project / "jobs" / "nightly.py").write_text(fixed, encoding="utf-8")
    # a file the project's configuration excludes is left alone though pre-commit names it
    (project / "generated").mkdir()
    (project / "generated" / "jobs.py").write_text(BROKEN, encoding="utf-8")
    pyproject = '[project]\nname = "evals"\n\n[tool.evalsubmit]\nexclude = ["generated/"]\n'
    (project / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    _git(project, "add", ".")
    passed = _try_repo(project)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "Passed" in passed.stdout


@pytest.mark.skipif(shutil.which("git") is None, reason="pre-commit needs git")
def test_hostile_file_names_stay_file_names(tmp_path: Path) -> None:
    """pre-commit appends the staged names after the entry, sorted: names that begin with `-`
    come first. Each must be checked as a file, never obeyed as an option."""
    project = tmp_path / "project"
    project.mkdir()
    _git(project, "init", "-q")
    sentinel = tmp_path / "sentinel"
    # run as "the interpreter" if `--python=run.py` were an option (git keeps its mode 100755)
    run_py = project / "run.py"
    run_py.write_text(f"#!/bin/sh\ntouch '{sentinel}'\n", encoding="utf-8")
    run_py.chmod(0o755)
    (project / "--python=run.py").write_text("x = 1\n", encoding="utf-8")
    # an extension-less executable whose shebang names python: pre-commit passes it as Python
    exit_zero = project / "--exit-zero"
    exit_zero.write_text("#!/usr/bin/env python\nx = 1\n", encoding="utf-8")
    exit_zero.chmod(0o755)
    (project / "--output-file=victim.py").write_text("x = 1\n", encoding="utf-8")
    victim = project / "victim.py"
    victim.write_text("precious = 1\n", encoding="utf-8")
    (project / "jobs").mkdir()
    (project / "jobs" / "nightly.py").write_text(BROKEN, encoding="utf-8")
    _git(project, "add", ".")

    result = _try_repo(project)
    assert not sentinel.exists(), "a file name was run as the interpreter"
    assert victim.read_text(encoding="utf-8") == "precious = 1\n", "a file name became a report"
    assert result.returncode == 1, result.stdout + result.stderr
    assert "jobs/nightly.py:10:50: ES102" in result.stdout, result.stdout
    assert "Failed" in result.stdout
