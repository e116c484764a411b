#!/usr/bin/env python3
"""Install, start, seed and stop a local NeMo Platform (nemo-platform 0.6.0) on loopback.

Usage:
    python scripts/local_platform.py install
    python scripts/local_platform.py start [--port 8080] [--data-dir DIR] [--fresh]
    python scripts/local_platform.py seed  [--base-url URL] [--workspace W] [--tasks a,b]
                                           [--taskset smoke]
    python scripts/local_platform.py stop  [--data-dir .cache/local-platform]
    python scripts/local_platform.py complete-job --base-url URL --workspace W --taskset T

`start` runs `nmp services run` from the cached Python 3.12 venv (`scripts/sdk-venv.sh`) in its
own session (process group), with every piece of state (SQLite store, files, job working
directories, XDG dirs, log) inside the data dir, waits until `GET /status` reports `healthy`,
and prints the base URL. The process id is kept in `<data-dir>/platform.pid` for `stop`.

Only the standard library is used, so any Python >= 3.9 can run this file; the test suite
imports it as a module (`start_platform`, `stop_platform`, `seed_platform`).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
SDK_VENV_SCRIPT = ROOT / "scripts" / "sdk-venv.sh"
DEFAULT_DATA_DIR = ROOT / ".cache" / "local-platform"


def _sdk_version() -> str:
    """The SDK release evalsubmit targets (read, not imported: this script runs anywhere)."""
    text = (ROOT / "server" / "evalsubmit" / "sdk" / "version.py").read_text(encoding="utf-8")
    for line in text.splitlines():
        if line.startswith("SDK_VERSION = "):
            return line.split("=", 1)[1].strip().strip('"')
    raise RuntimeError("no SDK_VERSION in server/evalsubmit/sdk/version.py")


SDK_VERSION = _sdk_version()
DEFAULT_PORT = 8080
SERVICES = "auth,entities,files,jobs,secrets,evaluator"
CONTROLLERS = "jobs,entities"
KEPT_SECTIONS = ("platform", "auth", "entities", "jobs", "secrets", "files")

# Read the bundled config with the SDK venv's own yaml (this script needs no third-party module).
_DUMP_BUNDLED_CONFIG = """
import json, pathlib, yaml, nmp.platform_runner as pr
path = pathlib.Path(list(pr.__path__)[0]) / "config" / "local.yaml"
print(json.dumps(yaml.safe_load(path.read_text())))
"""


class PlatformStartError(RuntimeError):
    """The platform process exited or did not become healthy in time."""


@dataclass
class PlatformProcess:
    """A running local platform: its URL, process (group) id and data directory."""

    base_url: str
    pid: int
    data_dir: Path
    log_path: Path
    start_seconds: float


# --------------------------------------------------------------------------- install


def sdk_python(install: bool = True) -> Path:
    """Path of the cached SDK venv's python, creating the venv if `install` is true."""
    override = os.environ.get("EVALSUBMIT_SDK_PYTHON")
    if override:
        return Path(override)
    venv_python = ROOT / ".cache" / "sdk-venv" / "bin" / "python"
    stamp = ROOT / ".cache" / "sdk-venv" / f".complete-{SDK_VERSION}"
    if stamp.exists() and venv_python.exists():
        return venv_python
    if not install:
        raise PlatformStartError(
            "the NeMo Platform venv is missing; run `python scripts/local_platform.py install`"
        )
    out = subprocess.run([str(SDK_VENV_SCRIPT)], check=True, stdout=subprocess.PIPE, text=True)
    return Path(out.stdout.strip().splitlines()[-1])


def nmp_executable(python: Path) -> Path:
    return python.parent / "nmp"


# --------------------------------------------------------------------------- config


def build_config(
    python: Path, data_dir: Path, base_url: str, *, auth: bool = False
) -> dict[str, Any]:
    """The bundled local.yaml reduced to what a self-contained evaluator platform needs.

    With `auth`, authentication is on (unsigned `alg=none` JWTs accepted, for testing)."""
    out = subprocess.run(
        [str(python), "-c", _DUMP_BUNDLED_CONFIG], check=True, stdout=subprocess.PIPE, text=True
    )
    bundled: dict[str, Any] = json.loads(out.stdout)
    config = {key: bundled.get(key, {}) or {} for key in KEPT_SECTIONS}
    config["platform"] = {**config["platform"], "base_url": base_url}
    config["auth"] = {**config["auth"], "enabled": auth}
    if auth:
        config["auth"]["allow_unsigned_jwt"] = True
        config["auth"]["policy_decision_point_base_url"] = base_url
    work_dir = str(data_dir / "jobs")
    jobs = dict(config["jobs"])
    subprocess_executors = [
        e for e in jobs.get("executors", []) if e.get("provider") == "subprocess"
    ] or [{"provider": "subprocess", "profile": "default", "backend": "subprocess", "config": {}}]
    for executor in subprocess_executors:
        executor["config"] = {**executor.get("config", {}), "working_directory": work_dir}
    jobs["executors"] = subprocess_executors
    defaults = dict(jobs.get("executor_defaults", {}))
    defaults.pop("docker", None)
    defaults["subprocess"] = {**defaults.get("subprocess", {}), "working_directory": work_dir}
    jobs["executor_defaults"] = defaults
    config["jobs"] = jobs
    return config


def platform_env(data_dir: Path) -> dict[str, str]:
    env = dict(os.environ)
    for name in ("state", "config", "cache"):
        (data_dir / "xdg" / name).mkdir(parents=True, exist_ok=True)
    env.update(
        NMP_DATA_DIR=str(data_dir / "data"),
        XDG_STATE_HOME=str(data_dir / "xdg" / "state"),
        XDG_CONFIG_HOME=str(data_dir / "xdg" / "config"),
        XDG_CACHE_HOME=str(data_dir / "xdg" / "cache"),
        NEMO_TELEMETRY_ENABLED="false",
        NEMO_PLUGIN_ALLOWLIST="evaluator",
        TMPDIR=str(data_dir / "tmp"),
    )
    # Never let the user's own platform settings leak into the service.
    for name in ("NMP_CONFIG_FILE", "NMP_BASE_URL", "NMP_ACCESS_TOKEN", "NMP_WORKSPACE"):
        env.pop(name, None)
    (data_dir / "data").mkdir(parents=True, exist_ok=True)
    (data_dir / "tmp").mkdir(parents=True, exist_ok=True)
    return env


# --------------------------------------------------------------------------- HTTP helpers


def http_json(method: str, url: str, body: Any = None, timeout: float = 10.0) -> tuple[int, Any]:
    """A tiny JSON request; returns (status, parsed body or raw text). Raises OSError if down."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as err:
        status, raw = err.code, err.read()
    try:
        return status, json.loads(raw) if raw else None
    except ValueError:
        return status, raw.decode(errors="replace")


def is_healthy(base_url: str) -> bool:
    try:
        status, body = http_json("GET", f"{base_url}/status", timeout=2.0)
    except OSError:
        return False
    return status == 200 and isinstance(body, dict) and body.get("status") == "healthy"


# --------------------------------------------------------------------------- start / stop


def start_platform(
    port: int = DEFAULT_PORT,
    data_dir: Path = DEFAULT_DATA_DIR,
    *,
    host: str = "127.0.0.1",
    timeout_s: float = 90.0,
    install: bool = True,
    auth: bool = False,
) -> PlatformProcess:
    """Start `nmp services run` in a new session and wait until `/status` says healthy."""
    data_dir = Path(data_dir).resolve()
    data_dir.mkdir(parents=True, exist_ok=True)
    base_url = f"http://{host}:{port}"
    if is_healthy(base_url):
        raise PlatformStartError(f"a platform is already answering at {base_url}")
    python = sdk_python(install=install)
    config_path = data_dir / "platform-config.yaml"
    # JSON is valid YAML.
    config = build_config(python, data_dir, base_url, auth=auth)
    config_path.write_text(json.dumps(config, indent=2))
    log_path = data_dir / "platform.log"
    command = [
        str(nmp_executable(python)), "services", "run",
        "--config", str(config_path), "--host", host, "--port", str(port),
        "--services", SERVICES, "--controllers", CONTROLLERS,
    ]  # fmt: skip
    started = time.monotonic()
    with open(log_path, "ab") as log:
        proc = subprocess.Popen(
            command,
            cwd=str(data_dir),
            env=platform_env(data_dir),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # setsid: the whole tree is one process group
        )
    (data_dir / "platform.pid").write_text(str(proc.pid))
    deadline = started + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            (data_dir / "platform.pid").unlink(missing_ok=True)
            raise PlatformStartError(
                f"nmp services exited with code {proc.returncode}; log tail:\n{_tail(log_path)}"
            )
        if is_healthy(base_url):
            elapsed = time.monotonic() - started
            return PlatformProcess(base_url, proc.pid, data_dir, log_path, elapsed)
        time.sleep(0.25)
    stop_pid(proc.pid)
    (data_dir / "platform.pid").unlink(missing_ok=True)
    raise PlatformStartError(
        f"platform not healthy after {timeout_s:.0f}s; log tail:\n{_tail(log_path)}"
    )


def _proc_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, start time) from /proc (empty where /proc does not exist)."""
    table: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        table[int(entry.name)] = (int(fields[1]), fields[19])
    return table


def _descendants(pid: int) -> dict[int, str]:
    """All processes below `pid` (with their start times, to avoid hitting a reused pid).

    Job subprocesses of the platform run in sessions of their own, so ending the platform's
    process group does not reach them; they are ended one by one."""
    table = _proc_table()
    found: dict[int, str] = {}
    frontier = [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, started) in table.items():
            if ppid == parent and child not in found:
                found[child] = started
                frontier.append(child)
    return found


def _alive(pid: int, started: str | None = None) -> bool:
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)  # reap it if it is our own exited child
    if started is not None:
        return _proc_table().get(pid, (0, ""))[1] == started
    try:
        os.killpg(pid, 0)
    except ProcessLookupError:
        return False
    return True


def stop_pid(pid: int, grace_s: float = 15.0) -> bool:
    """End the platform started as process group `pid`, and every process it started.

    SIGTERM to the group (and to descendants in other sessions), SIGKILL after `grace_s`.
    True if the platform was running."""
    descendants = _descendants(pid)
    try:
        os.killpg(pid, signal.SIGTERM)
    except ProcessLookupError:
        return False
    for child in descendants:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGTERM)
    deadline = time.monotonic() + grace_s
    while time.monotonic() < deadline:
        if not _alive(pid) and not any(_alive(c, t) for c, t in descendants.items()):
            return True
        time.sleep(0.1)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)
    for child, started in descendants.items():
        if _alive(child, started):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(child, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(pid, 0)
    return True


def stop_platform(data_dir: Path = DEFAULT_DATA_DIR) -> bool:
    """Stop the platform whose pid file is in `data_dir`. True if something was stopped."""
    pid_file = Path(data_dir).resolve() / "platform.pid"
    if not pid_file.exists():
        return False
    pid = int(pid_file.read_text().strip())
    cmdline = Path(f"/proc/{pid}/cmdline")
    with contextlib.suppress(OSError):
        if b"services\0run" not in cmdline.read_bytes():  # a stale pid file; pid reused
            pid_file.unlink(missing_ok=True)
            return False
    stopped = stop_pid(pid)
    pid_file.unlink(missing_ok=True)
    return stopped


def _tail(path: Path, lines: int = 30) -> str:
    try:
        return "\n".join(path.read_text(errors="replace").splitlines()[-lines:])
    except OSError:
        return "(no log)"


# --------------------------------------------------------------------------- seed


def seed_platform(
    base_url: str,
    workspace: str = "evalsubmit-demo",
    tasks: tuple[str, ...] = ("task-a", "task-b"),
    taskset: str = "smoke",
) -> str:
    """Create a workspace, evaluator tasks and a taskset over HTTP (409 = already there).

    Returns the taskset reference `workspace/taskset`.
    """
    base_url = base_url.rstrip("/")
    _expect(
        http_json(
            "POST",
            f"{base_url}/apis/entities/v2/workspaces",
            {"name": workspace, "description": "created by evalsubmit local_platform.py seed"},
        ),
        f"create workspace {workspace}",
    )
    for task in tasks:
        _expect(
            http_json(
                "POST",
                f"{base_url}/apis/evaluator/v2/workspaces/{workspace}/tasks/{task}",
                gym_task_body(task),
            ),
            f"create task {task}",
        )
    _expect(
        http_json(
            "POST",
            f"{base_url}/apis/evaluator/v2/workspaces/{workspace}/tasksets/{taskset}",
            {"description": "evalsubmit smoke taskset", "tasks": list(tasks)},
        ),
        f"create taskset {taskset}",
    )
    return f"{workspace}/{taskset}"


#: The `summary` result a completed agent-evaluate job publishes (its `summary.json`): an
#: `AgentEvalSummary` of nemo-evaluator-sdk (nemo-platform 0.6.0), made with that model for two
#: tasks scored by `gym_reward.reward`.
AGENT_EVAL_SUMMARY: dict[str, Any] = {
    "scores": {
        "scores": [
            {
                "name": "gym_reward.reward",
                "count": 2,
                "nan_count": 0,
                "sum": 1.0,
                "mean": 0.5,
                "min": 0.0,
                "max": 1.0,
                "score_type": "range",
            }
        ]
    },
    "metric_coverage": {},
    "task_metric_values": {},
    "error_trial_ids": {},
    "task_count": 2,
    "trial_count": 2,
    "score_count": 2,
    "error_count": 0,
}


def complete_job(base_url: str, workspace: str, taskset: str, name: str | None = None) -> str:
    """A completed agent-evaluate job with a `summary` result, made through the platform's own
    APIs (the local platform cannot complete a Gym job: it has no gym CLI).

    The job is submitted like any other, then its one step is moved created -> pending ->
    active -> completed with the jobs service's step-status route before the controller starts
    it (the controller leaves a completed job alone), and the summary is stored in the job's
    fileset and registered as its `summary` result, as the job itself would. Returns its name.
    """
    base_url = base_url.rstrip("/")
    name = name or f"evalsubmit-completed-{int(time.time() * 1000) % 10**9}"
    target = {
        "kind": "gym",
        "agent": "simple_agent",
        "agent_config": "configs/agent.yaml",
        "resources_server": "mcqa",
    }
    jobs = f"{base_url}/apis/evaluator/v2/workspaces/{workspace}/agent-evaluate/jobs"
    _expect(
        http_json("POST", jobs, {"name": name, "spec": {"tasks": taskset, "target": target}}),
        f"submit job {name}",
    )
    core = f"{base_url}/apis/jobs/v2/workspaces/{workspace}/jobs/{name}"
    for status in ("pending", "active", "completed"):
        code, body = http_json(
            "PATCH",
            f"{core}/steps/agent-evaluate/status",
            {"status": status, "status_details": {"message": f"set by complete-job ({status})"}},
        )
        if code != 200:  # 409: the controller started the job first
            raise RuntimeError(f"move job {name} to {status} failed: HTTP {code}: {body}")
    code, job = http_json("GET", core)
    _expect((code, job), f"read job {name}")
    fileset = job["fileset"]
    path = "results/summary/summary.json"
    _expect(
        http_json(
            "PUT",
            f"{base_url}/apis/files/v2/workspaces/{workspace}/filesets/{fileset}/-/{path}",
            AGENT_EVAL_SUMMARY,
        ),
        f"store the summary of {name}",
    )
    _expect(
        http_json(
            "POST",
            f"{core}/results/summary",
            {"artifact_url": f"{workspace}/{fileset}#{path}", "artifact_storage_type": "fileset"},
        ),
        f"register the summary result of {name}",
    )
    return name


def gym_task_body(task: str) -> dict[str, Any]:
    """An evaluator task shaped like `discover_gym_tasks` output (a Gym dataset row split into
    `inputs.gym_row` and the `gym_row_extras` metadata), so a Gym job gets as far as launching
    the gym CLI."""
    question = f"Smoke question {task}: what is 2 + 2?"
    return {
        "spec": {
            "kind": "evaluator",
            "intent": question,
            "inputs": {
                "instruction": question,
                "gym_row": {"input": [{"role": "user", "content": question}]},
            },
        },
        "metadata": [
            {"key": "gym_row_extras", "value": {"expected_answer": "4", "task_name": task}},
        ],
    }


def _expect(result: tuple[int, Any], what: str) -> None:
    status, body = result
    if status in (200, 201, 409):
        return
    raise RuntimeError(f"{what} failed: HTTP {status}: {str(body)[:500]}")


# --------------------------------------------------------------------------- CLI


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("install", help="create the cached Python 3.12 venv with nemo-platform")
    start = sub.add_parser("start", help="start a local platform and print its base URL")
    start.add_argument("--port", type=int, default=DEFAULT_PORT)
    start.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    start.add_argument("--host", default="127.0.0.1")
    start.add_argument("--timeout", type=float, default=90.0)
    start.add_argument(
        "--fresh", action="store_true", help="delete the data dir's previous state first"
    )
    start.add_argument(
        "--auth", action="store_true", help="turn authentication on (unsigned JWTs accepted)"
    )
    stop = sub.add_parser("stop", help="stop the platform started with the same --data-dir")
    stop.add_argument("--data-dir", type=Path, default=DEFAULT_DATA_DIR)
    seed = sub.add_parser("seed", help="create a workspace, tasks and a taskset")
    seed.add_argument("--base-url", default=f"http://127.0.0.1:{DEFAULT_PORT}")
    seed.add_argument("--workspace", default="evalsubmit-demo")
    seed.add_argument("--tasks", default="task-a,task-b", help="comma-separated task names")
    seed.add_argument("--taskset", default="smoke")
    done = sub.add_parser(
        "complete-job", help="make a completed agent-evaluate job with a summary; print its name"
    )
    done.add_argument("--base-url", default=f"http://127.0.0.1:{DEFAULT_PORT}")
    done.add_argument("--workspace", default="evalsubmit-demo")
    done.add_argument("--taskset", default="evalsubmit-demo/smoke")
    done.add_argument("--name", default=None)
    args = parser.parse_args(argv)

    try:
        if args.command == "install":
            print(sdk_python(install=True))
        elif args.command == "start":
            if args.fresh:
                for sub_dir in ("data", "jobs", "tmp", "xdg"):
                    shutil.rmtree(Path(args.data_dir) / sub_dir, ignore_errors=True)
            running = start_platform(
                args.port, args.data_dir, host=args.host, timeout_s=args.timeout, auth=args.auth
            )
            print(running.base_url)
            print(
                f"started pid {running.pid} in {running.start_seconds:.1f}s; "
                f"log {running.log_path}; stop with: python scripts/local_platform.py stop "
                f"--data-dir {args.data_dir}",
                file=sys.stderr,
            )
        elif args.command == "stop":
            if not stop_platform(args.data_dir):
                print("no running platform recorded in that data dir", file=sys.stderr)
        elif args.command == "seed":
            tasks = tuple(t for t in args.tasks.split(",") if t)
            print(seed_platform(args.base_url, args.workspace, tasks, args.taskset))
        elif args.command == "complete-job":
            print(complete_job(args.base_url, args.workspace, args.taskset, args.name))
    except (PlatformStartError, RuntimeError, OSError, subprocess.CalledProcessError) as err:
        print(f"local_platform: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
