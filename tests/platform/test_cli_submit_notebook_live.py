"""``evalsubmit submit NB.ipynb:cell N:LINE`` end to end: the real console script on a notebook
(a ``%pip`` cell, markdown, a runner defined in one cell), against the session's real NeMo
Platform (tests/platform_service.py). The job read back from the platform carries the target
``evalsubmit preview`` prints for the same cell position."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest

from notebook_project import make_notebook_project
from platform_service import PlatformService

pytestmark = [pytest.mark.platform, pytest.mark.timeout(600)]

EVALSUBMIT = Path(sys.executable).parent / "evalsubmit"
RUNNER = "nightly.ipynb:cell 3:7"  # runner = GymAgentTaskRunner(


def run(tmp_path: Path, cwd: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    """No platform of the machine's user: only what the command line says."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NMP_", "NEMO_PLATFORM_"))}
    env.pop("XDG_CONFIG_HOME", None)
    env["HOME"] = str(tmp_path / "home")
    return subprocess.run(
        [str(EVALSUBMIT), *argv], cwd=cwd, capture_output=True, text=True, env=env, timeout=300
    )


def get_job(service: PlatformService, name: str) -> dict[str, Any]:
    url = f"{service.base_url}/apis/evaluator/v2/workspaces/{service.workspace}/agent-evaluate/jobs"
    response = httpx.get(f"{url}/{name}", timeout=30)
    response.raise_for_status()
    return response.json()  # type: ignore[no-any-return]


def test_a_runner_defined_in_a_cell_is_submitted_from_its_position(
    platform_service: PlatformService, tmp_path: Path
) -> None:
    service = platform_service
    project = make_notebook_project(tmp_path / "team")
    preview = run(tmp_path, project, "preview", RUNNER)
    assert preview.returncode == 0, preview.stderr
    argv = ["submit", RUNNER, "--taskset", service.taskset, "--workspace", service.workspace]
    done = run(tmp_path, project, *argv, "--base-url", service.base_url, "--output-format", "json")
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    assert answer["submitted"] is True and answer["status"] == "created"
    assert answer["workspace"] == service.workspace and answer["tasks"] == service.taskset
    stored = get_job(service, answer["name"])
    assert stored["id"] == answer["id"]
    assert stored["spec"]["target"] == json.loads(preview.stdout)
    assert stored["spec"]["target"]["agent"] == "simple_agent"
