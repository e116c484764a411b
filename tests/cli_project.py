"""A small team project for the CLI tests: a package of jobs over a module of runner helpers,
a legacy script saved by a Windows editor (CRLF, UTF-8 BOM), and a test suite.

Planted, with the fix each gets:

* ``jobs/runners.py``: ``env_vars={"CUDA_VISIBLE_DEVICES": 0}`` (ES109, safe: quoted);
* ``jobs/nightly.py``: ``config=RunConfig(...)`` on a taskset run (ES102, safe: removed) and a
  runner built by ``make_runner`` imported from the sibling module (clean, proving the import
  is followed); ``metric=`` on a taskset run (ES101, unsafe);
* ``jobs/legacy.py`` (CRLF + BOM): ``prompt_template=`` on a taskset run (ES102, safe) and
  ``hydra_params`` holding a generator (ES107, safe: ``list(...)``);
* ``tests/test_nightly.py``: a submit with no shape (ES103, no fix).
"""

from __future__ import annotations

import codecs
import os
import subprocess
from pathlib import Path

import pytest

IMPORTS = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import ExactMatchMetric, RunConfig
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform
"""

RUNNERS = (
    IMPORTS
    + """\


def make_runner(agent: str) -> GymAgentTaskRunner:
    config = GymRuntimeConfig(
        agent=agent,
        agent_config="configs/agent.yaml",
        resources_server="mcqa",
        env_vars={"CUDA_VISIBLE_DEVICES": 0},
    )
    return GymAgentTaskRunner(config=config)
"""
)

NIGHTLY = (
    IMPORTS
    + """\

from jobs.runners import make_runner

client = NeMoPlatform(workspace="qa")
metric = ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}")

job = client.evaluator.submit(
    tasks=TasksetRef("qa/nightly"),
    target=make_runner("simple_agent"),
    config=RunConfig(parallelism=16),
)
client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=make_runner("b"), metric=metric)
"""
)

LEGACY = (
    IMPORTS
    + """\

client = NeMoPlatform(workspace="qa")
runner = GymAgentTaskRunner(config=GymRuntimeConfig(
    agent="legacy_agent", agent_config="configs/legacy.yaml", resources_server="mcqa",
    hydra_params={"seeds": (s * 7 for s in range(4))},
))
client.evaluator.submit(
    tasks=TasksetRef("qa/legacy"), target=runner, prompt_template="{{item.q}}"
)
"""
)

TEST_NIGHTLY = (
    IMPORTS
    + """\

from jobs.runners import make_runner


def test_submit_smoke() -> None:
    client = NeMoPlatform(workspace="qa")
    client.evaluator.submit(target=make_runner("smoke"))
"""
)


def make_project(root: Path) -> Path:
    """Write the project under ``root`` (created); returns ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "pyproject.toml").write_text('[project]\nname = "team-jobs"\n', encoding="utf-8")
    (root / "jobs").mkdir()
    (root / "jobs" / "__init__.py").write_text("", encoding="utf-8")
    (root / "jobs" / "runners.py").write_text(RUNNERS, encoding="utf-8")
    (root / "jobs" / "nightly.py").write_text(NIGHTLY, encoding="utf-8")
    legacy = codecs.BOM_UTF8 + LEGACY.replace("\n", "\r\n").encode("utf-8")
    (root / "jobs" / "legacy.py").write_bytes(legacy)
    (root / "tests").mkdir()
    (root / "tests" / "test_nightly.py").write_text(TEST_NIGHTLY, encoding="utf-8")
    return root


def console(project: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """The installed `evalsubmit` console script run in ``project`` (no active virtualenv)."""
    return subprocess.run(
        [str(Path(__file__).resolve().parents[1] / ".venv/bin/evalsubmit"), *argv],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=project,
        env={**os.environ, "VIRTUAL_ENV": ""},
    )


def run_check(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``evalsubmit *argv`` in process: its exit code, stdout and stderr."""
    from evalsubmit.cli import main

    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err
