"""pytest plugin: one real NeMo Platform (the SDK release of evalsubmit.sdk.version) per test
session. ``tests/`` is on sys.path (``pythonpath`` in pyproject.toml), so any conftest can do

    from platform_service import platform_service  # noqa: F401  (re-export the fixture)

Several conftests importing the fixture still share one platform per session.

The fixture `platform_service` starts `nmp services run` on a free loopback port with a fresh
temporary data dir (via scripts/local_platform.py), seeds workspace `evalsubmit-test` with tasks
`task-a`, `task-b` and taskset `smoke`, yields a `PlatformService`, and always stops the whole
process group at the end of the session.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
LOCAL_PLATFORM_SCRIPT = ROOT / "scripts" / "local_platform.py"
WORKSPACE = "evalsubmit-test"
TASKS = ("task-a", "task-b")
TASKSET = "smoke"


def load_local_platform() -> ModuleType:
    """scripts/local_platform.py as a module (it is a script, not part of a package)."""
    name = "evalsubmit_local_platform"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, LOCAL_PLATFORM_SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass(frozen=True)
class PlatformService:
    """What a test needs to talk to the session's platform."""

    base_url: str
    workspace: str
    taskset: str  # "evalsubmit-test/smoke"
    tasks: tuple[str, ...]
    data_dir: Path
    pid: int
    start_seconds: float
    sdk_python: Path

    @property
    def taskset_ref(self) -> str:
        return self.taskset


def _gym_tmp_dirs() -> set[str]:
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "gym_run_*")))


@contextlib.contextmanager
def running_platform(data_dir: Path) -> Iterator[PlatformService]:
    """Start, seed, yield, and always stop a platform (also usable outside pytest)."""
    lp = load_local_platform()
    try:
        python = lp.sdk_python(install=True)
    except Exception as exc:  # pragma: no cover - environment without Python 3.12
        pytest.skip(f"nemo-platform venv unavailable: {exc}")
    gym_before = _gym_tmp_dirs()
    running = lp.start_platform(free_port(), data_dir, timeout_s=120.0)
    try:
        taskset = lp.seed_platform(running.base_url, WORKSPACE, TASKS, TASKSET)
        yield PlatformService(
            base_url=running.base_url,
            workspace=WORKSPACE,
            taskset=taskset,
            tasks=TASKS,
            data_dir=running.data_dir,
            pid=running.pid,
            start_seconds=running.start_seconds,
            sdk_python=Path(python),
        )
    finally:
        lp.stop_pid(running.pid)
        with contextlib.suppress(OSError):
            (Path(data_dir) / "platform.pid").unlink()
        # Failed Gym jobs leave empty /tmp/gym_run_* folders behind; remove the new empty ones.
        for leftover in _gym_tmp_dirs() - gym_before:
            with contextlib.suppress(OSError):
                os.rmdir(leftover)


class _Shared:
    """One platform per process, however many conftests import the fixture (each import makes
    a separate fixture definition; they all share this)."""

    service: PlatformService | None = None
    stack: contextlib.ExitStack | None = None
    users = 0


@contextlib.contextmanager
def shared_platform(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlatformService]:
    if _Shared.service is None:
        stack = contextlib.ExitStack()
        _Shared.service = stack.enter_context(
            running_platform(tmp_path_factory.mktemp("nmp-platform"))
        )
        _Shared.stack = stack
        pid = _Shared.service.pid

        def safety_net() -> None:  # if the session dies without running finalizers
            load_local_platform().stop_pid(pid, 5.0)

        atexit.register(safety_net)
        stack.callback(atexit.unregister, safety_net)
    _Shared.users += 1
    try:
        yield _Shared.service
    finally:
        _Shared.users -= 1
        if _Shared.users == 0 and _Shared.stack is not None:
            stack, _Shared.stack, _Shared.service = _Shared.stack, None, None
            stack.close()


@pytest.fixture(scope="session")
def platform_service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PlatformService]:
    """The session's real platform (started on first use, stopped at session end)."""
    with shared_platform(tmp_path_factory) as service:
        yield service


def sdk_runner_target(service: PlatformService, config: dict[str, Any]) -> dict[str, Any]:
    """``runner_to_target(GymAgentTaskRunner(config=GymRuntimeConfig(**config)))`` as JSON,
    computed by the real SDK: what the editor and the CLI must send."""
    script = (
        "import json, sys\n"
        "from nemo_evaluator.jobs.runner_targets import runner_to_target\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
        "GymRuntimeConfig\n"
        "runner = GymAgentTaskRunner(config=GymRuntimeConfig(**json.load(sys.stdin)))\n"
        "print(json.dumps(runner_to_target(runner).model_dump(mode='json')))\n"
    )
    out = subprocess.run(
        [str(service.sdk_python), "-c", script],
        input=json.dumps(config),
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return json.loads(out.stdout)  # type: ignore[no-any-return]
