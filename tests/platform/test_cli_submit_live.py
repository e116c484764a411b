"""``evalsubmit submit`` end to end: the real console script, in a subprocess, on the bundled
example ``examples/nightly_eval.py`` (copied into the test's folder), against the session's real
NeMo Platform (tests/platform_service.py). No mock: each job is read back from the platform, and
its target compared with what the editor's path decides for the same place
(:func:`evalsubmit.platform.submission.plan`) and with what the real SDK derives for the runner.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from evalsubmit.analysis import Project, analyze_source
from evalsubmit.platform.submission import Plan, plan, position_on_line
from platform_service import PlatformService, sdk_runner_target

pytestmark = [pytest.mark.platform, pytest.mark.timeout(600)]

REPO = Path(__file__).resolve().parents[2]
EXAMPLE = REPO / "examples" / "nightly_eval.py"
EVALSUBMIT = Path(sys.executable).parent / "evalsubmit"
RUNNER_LINE = 33  # return GymAgentTaskRunner(config=build_config())
CALL_LINE = 41  # job = client.evaluator.submit(tasks=NIGHTLY, target=gym_runner)
ROW_OPTION_LINE = 52  # config=RunConfig(parallelism=16)  # expect: ES102
# The runner's config in the example, as the SDK receives it.
EXAMPLE_CONFIG = {
    "agent": "simple_agent",
    "agent_config": "configs/simple_agent.yaml",
    "resources_server": "mcqa",
    "concurrency": 8,
    "startup_timeout_s": 120,
    "env_vars": {"HF_HOME": "/models/hf", "LOG_LEVEL": "info"},
    "hydra_params": {"temperature": 0.2, "max_turns": 8, "seeds": [0, 7, 14, 21]},
}


def example(tmp_path: Path, service: PlatformService | None = None) -> Path:
    """The example in its own folder; with ``service``, its workspace and taskset are the
    platform's (the code then names them: tasks= and NeMoPlatform(workspace=...))."""
    text = EXAMPLE.read_text(encoding="utf-8")
    if service is not None:
        text = text.replace('WORKSPACE = "qa"', f"WORKSPACE = {service.workspace!r}")
        text = text.replace('TasksetRef("qa/mcqa-nightly")', f"TasksetRef({service.taskset!r})")
    path = tmp_path / EXAMPLE.name
    path.write_text(text, encoding="utf-8")
    return path


def editor_plan(path: Path, line: int, tasks: str | None) -> Plan:
    """What the editor's "Submit evaluation" decides at the start of that line's call/runner."""
    text = path.read_text(encoding="utf-8")
    report = analyze_source(text, path=path, project=Project(path.parent))
    position = position_on_line(report, line)
    assert position is not None
    decided = plan(report, *position, tasks, default_taskset=None, name_a_taskset="-")
    assert isinstance(decided, Plan), decided
    return decided


def sdk_target(service: PlatformService) -> dict[str, Any]:
    return sdk_runner_target(service, EXAMPLE_CONFIG)


def clean_env(tmp_path: Path) -> dict[str, str]:
    """No platform of the machine's user: only what the command line says."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NMP_", "NEMO_PLATFORM_"))}
    env.pop("XDG_CONFIG_HOME", None)
    return {**env, "HOME": str(tmp_path / "home")}


def evalsubmit(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(EVALSUBMIT), "submit", *argv],
        capture_output=True,
        text=True,
        env=clean_env(tmp_path),
        timeout=300,
    )


def jobs_url(service: PlatformService) -> str:
    workspace = f"/apis/evaluator/v2/workspaces/{service.workspace}"
    return f"{service.base_url}{workspace}/agent-evaluate/jobs"


def get_job(service: PlatformService, name: str) -> dict[str, Any]:
    response = httpx.get(f"{jobs_url(service)}/{name}", timeout=30)
    response.raise_for_status()
    return response.json()  # type: ignore[no-any-return]


def job_names(service: PlatformService) -> set[str]:
    names: set[str] = set()
    for page in range(1, 50):
        answer = httpx.get(jobs_url(service), params={"page": page}, timeout=30).json()
        names |= {row["name"] for row in answer["data"]}
        if page >= int((answer.get("pagination") or {}).get("total_pages") or 1):
            return names
    raise AssertionError("more than 50 pages of jobs")


def test_a_runner_is_submitted_as_the_editor_would_without_waiting(
    platform_service: PlatformService, tmp_path: Path
) -> None:
    service = platform_service
    path = example(tmp_path)  # workspace "qa" in the code: --workspace wins, as a setting does
    done = evalsubmit(
        tmp_path,
        f"{path}:{RUNNER_LINE}",
        "--taskset",
        service.taskset,
        "--workspace",
        service.workspace,
        "--base-url",
        service.base_url,
        "--output-format",
        "json",
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    name = answer["name"]
    assert answer["submitted"] is True and answer["status"] == "created"
    assert answer["workspace"] == service.workspace and answer["tasks"] == service.taskset
    assert answer["url"] == f"{jobs_url(service)}/{name}"
    assert f"job {name} created in workspace {service.workspace}: {answer['url']}" in done.stderr

    stored = get_job(service, name)
    assert stored["id"] == answer["id"]
    target = editor_plan(path, RUNNER_LINE, service.taskset).target
    assert stored["spec"]["target"] == target == sdk_target(service)
    assert len(stored["spec"]["tasks"]) == len(service.tasks)  # the taskset, expanded


def test_a_call_with_its_tasks_in_the_code_is_followed_to_its_end(
    platform_service: PlatformService, tmp_path: Path
) -> None:
    """tasks= and the workspace come from the code; --wait follows the job, which ends in
    `error` on the local platform (the `gym` CLI is not installed): exit 1."""
    service = platform_service
    path = example(tmp_path, service)
    done = evalsubmit(
        tmp_path,
        f"{path}:{CALL_LINE}",
        "--base-url",
        service.base_url,
        "--wait",
        "--poll-interval",
        "0.5",
    )
    assert done.returncode == 1, done.stderr
    out = done.stdout.strip()
    assert out.count("\n") == 0, "the outcome is one line"
    assert f"(workspace {service.workspace}) ended: error." in out
    assert "The 'gym' CLI was not found on PATH." in out
    name = out.split()[1]
    statuses = [line for line in done.stderr.splitlines() if f"s] job {name}: " in line]
    assert statuses[0].endswith("created, waiting to be scheduled"), done.stderr
    assert statuses[-1].split(f"job {name}: ")[1].startswith("error")
    assert len(statuses) >= 2

    stored = get_job(service, name)
    assert stored["status"] == "error"
    assert stored["spec"]["target"] == editor_plan(path, CALL_LINE, None).target


def test_a_refused_submission_creates_nothing(
    platform_service: PlatformService, tmp_path: Path
) -> None:
    service = platform_service
    before = job_names(service)
    path = example(tmp_path, service)
    done = evalsubmit(tmp_path, f"{path}:{ROW_OPTION_LINE}", "--base-url", service.base_url)
    assert done.returncode == 1
    assert "not submitted: ES102 `config=` is a row-evaluation option" in done.stderr
    assert done.stdout == ""
    assert job_names(service) == before


def test_an_unreachable_platform_is_a_clear_message(tmp_path: Path) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    path = example(tmp_path)
    done = evalsubmit(tmp_path, f"{path}:{RUNNER_LINE}", "--taskset", "qa/smoke", "--base-url", url)
    assert done.returncode == 3
    assert f"evalsubmit: Cannot reach the NeMo Platform at {url}: connection refused" in done.stderr
    assert done.stdout == ""


def test_ctrl_c_while_following_says_the_job_exists_and_how_to_cancel_it(
    platform_service: PlatformService, tmp_path: Path
) -> None:
    service = platform_service
    path = example(tmp_path, service)
    argv = ["submit", f"{path}:{CALL_LINE}", "--base-url", service.base_url, "--wait"]
    argv += ["--output-format", "json"]
    proc = subprocess.Popen(
        [str(EVALSUBMIT), *argv, "--poll-interval", "0.5"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=clean_env(tmp_path),
    )
    assert proc.stderr is not None
    lines: list[str] = []
    created = threading.Event()

    def read() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line)
            if "s] job " in line:  # following has begun
                created.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert created.wait(120), "".join(lines)
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    reader.join(10)  # the reader alone reads stderr (communicate() would race it)
    assert proc.stdout is not None
    out = proc.stdout.read()
    err = "".join(lines)
    assert proc.returncode == 130, err
    answer = json.loads(out)
    name = answer["name"]
    url = f"{jobs_url(service)}/{name}"
    assert answer["interrupted"] is True and answer["submitted"] is True
    assert answer["url"] == url
    assert f"stopped following job {name}" in err
    assert f"keeps running: {url}" in err and f"curl -X POST {url}/cancel" in err
    assert get_job(service, name)["name"] == name  # it exists
    # Still running, or ended on its own since: never cancelled by the CLI.
    time.sleep(0.5)
    assert get_job(service, name)["status"] != "cancelled"
