"""``evalsubmit submit`` without a platform: arguments, refusals (nothing is sent), platform
errors, Ctrl-C before the POST, and the shared decision (platform/submission.py) it runs.

"Nothing sent" is proved, not assumed: the platform address points at a listening socket that
records every connection, and a refusal must leave it untouched.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from evalsubmit.analysis import Project, analyze_source
from evalsubmit.cli import main
from evalsubmit.platform.submission import Refusal, candidates, plan, position_on_line

REPO = Path(__file__).resolve().parents[2]
NIGHTLY = REPO / "examples" / "nightly_eval.py"
"""Copied into a test's folder: analysed in the repository, the file's project would be the
whole repository (the caches, the extension's node_modules), which is slow to list."""
EVALSUBMIT = Path(sys.executable).parent / "evalsubmit"
TOKEN = "tok-SECRET-1234567890"

HEADER = """\
import os
from nemo_platform import NeMoPlatform
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
client = NeMoPlatform(workspace="qa")
"""
JOB = HEADER + textwrap.dedent("""\
    runner = GymAgentTaskRunner(config=GymRuntimeConfig(
        agent="simple_agent", agent_config="a.yaml", resources_server="mcqa"))
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
    unknown = GymAgentTaskRunner(config=GymRuntimeConfig(
        agent=os.environ["AGENT"], agent_config="a.yaml", resources_server="mcqa"))
    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=unknown)
    """)
# 1-based lines of JOB
RUNNER_LINE, CALL_LINE, UNKNOWN_CALL_LINE = 6, 8, 11


class Listener:
    """A socket that accepts connections and records what arrives; answers nothing."""

    def __init__(self) -> None:
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(8)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.received: list[bytes] = []
        self._open: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self._open.append(conn)  # held open: the client waits for an answer
            conn.settimeout(5.0)
            try:
                self.received.append(conn.recv(65536))
            except OSError:
                self.received.append(b"")

    def close(self) -> None:
        for conn in self._open:
            conn.close()
        self.sock.close()


@pytest.fixture
def listener() -> Iterator[Listener]:
    found = Listener()
    yield found
    found.close()


@pytest.fixture(autouse=True)
def no_user_platform(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No platform of the machine's user (env, ~/.config/nmp) leaks into a test."""
    for name in list(os.environ):
        if name.startswith(("NMP_", "NEMO_PLATFORM_")):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)


def job_file(tmp_path: Path) -> Path:
    path = tmp_path / "job.py"
    path.write_text(JOB, encoding="utf-8")
    return path


def in_tmp(location: str, tmp_path: Path) -> str:
    """``NIGHTLY:n`` and ``JOB:n`` as copies in ``tmp_path``."""
    nightly = tmp_path / NIGHTLY.name
    nightly.write_text(NIGHTLY.read_text(encoding="utf-8"), encoding="utf-8")
    location = location.replace("NIGHTLY", str(nightly))
    return location.replace("JOB", str(job_file(tmp_path)))


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["submit", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


# -- arguments ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("location", "extra", "message"),
    [
        ("job.py", (), "expected PATH:LINE[:COL]"),
        ("missing.py:3", (), "cannot read"),
        ("job.py:999", (), "there is no line 999"),
        ("job.py:6", ("--taskset", "  "), "--taskset: empty"),
        ("job.py:6", ("--python", "/no/such/python"), "no Python interpreter"),
    ],
    ids=["no-line", "missing-file", "line-out-of-range", "empty-taskset", "bad-python"],
)
def test_usage_errors_exit_two_and_send_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    listener: Listener,
    location: str,
    extra: tuple[str, ...],
    message: str,
) -> None:
    job_file(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, location, "--base-url", listener.url, *extra)
    assert code == 2
    assert message in err and out == ""
    assert listener.received == []


@pytest.mark.parametrize(
    "argv",
    [("--poll-interval", "0"), ("--output-format", "sarif"), ("--token", "x")],
    ids=["poll-interval", "format", "no-token-option"],
)
def test_bad_options_are_usage_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    code, out, _ = run(capsys, f"{job_file(tmp_path)}:6", *argv)
    assert code == 2 and out == ""


def test_an_unusable_base_url_is_a_config_error_naming_the_option(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = job_file(tmp_path)
    code, out, err = run(capsys, f"{path}:{CALL_LINE}", "--base-url", "http://127.0.0.1:80800")
    assert code == 2 and out == ""
    assert "base URL from option --base-url cannot be used" in err
    assert "port 80800" in err


# -- refusals: exit 1, nothing sent ------------------------------------------------------------


@pytest.mark.parametrize(
    ("location", "extra", "reason"),
    [
        ("NIGHTLY:52", (), "ES102 `config=` is a row-evaluation option"),
        ("NIGHTLY:72", (), "not taskset-shaped (mixed)"),
        ("NIGHTLY:33", (), "no taskset: write tasks= in the call or pass --taskset"),
        ("NIGHTLY:33", ("--taskset", "qa team/x"), "taskset"),
        ("NIGHTLY:3", (), "no taskset submit() call or Gym runner on line 3"),
        ("JOB:11", (), "not statically known"),
    ],
    ids=["row-option", "mixed-shape", "no-taskset", "bad-taskset", "no-target", "unknown-part"],
)
def test_refusals_exit_one_with_reasons_and_send_nothing(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    listener: Listener,
    location: str,
    extra: tuple[str, ...],
    reason: str,
) -> None:
    code, out, err = run(capsys, in_tmp(location, tmp_path), "--base-url", listener.url, *extra)
    assert code == 1, err
    assert out == ""
    assert "evalsubmit: not submitted: " in err and reason in err
    time.sleep(0.2)
    assert listener.received == []


def test_a_refusal_in_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, in_tmp("NIGHTLY:33", tmp_path), "--output-format", "json")
    assert code == 1
    assert json.loads(out) == {
        "submitted": False,
        "reasons": ["no taskset: write tasks= in the call or pass --taskset WORKSPACE/TASKSET"],
    }


# -- platform errors ----------------------------------------------------------------------------


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def test_an_unreachable_platform_is_one_clear_line_and_exit_three(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("NMP_ACCESS_TOKEN", TOKEN)
    url = closed_port_url()
    path = job_file(tmp_path)
    code, out, err = run(
        capsys, f"{path}:{CALL_LINE}", "--base-url", url, "--output-format", "json"
    )
    assert code == 3
    failure = [line for line in err.splitlines() if "Cannot reach" in line]
    assert len(failure) == 1
    assert f"Cannot reach the NeMo Platform at {url}: connection refused" in failure[0]
    assert "On the command line: --base-url URL." in failure[0]
    assert f"platform {url} (option --base-url)" in err  # where it came from
    assert "workspace qa (NeMoPlatform(workspace=...) in the code)" in err
    answer = json.loads(out)
    assert answer["submitted"] is False and answer["kind"] == "connection_refused"
    assert TOKEN not in out + err


# -- the project's configuration file ---------------------------------------------------------


def test_the_configured_default_taskset_is_used_when_the_code_names_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """NIGHTLY:33 is refused for want of a taskset (above); with ``default-taskset`` in the
    project's pyproject.toml it is sent (to a closed port here: a platform error, exit 3)."""
    location = in_tmp("NIGHTLY:33", tmp_path)
    (tmp_path / "pyproject.toml").write_text(
        '[tool.evalsubmit]\ndefault-taskset = "qa/nightly"\n', encoding="utf-8"
    )
    code, _, err = run(capsys, location, "--base-url", closed_port_url())
    assert code == 3, err
    assert "not submitted" not in err and "Cannot reach" in err


def test_an_invalid_configuration_file_is_a_usage_error_naming_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], listener: Listener
) -> None:
    location = in_tmp("NIGHTLY:33", tmp_path)
    (tmp_path / "evalsubmit.toml").write_text('default-taskset = "no slash"\n', "utf-8")
    code, out, err = run(capsys, location, "--base-url", listener.url)
    assert code == 2 and out == ""
    assert "evalsubmit.toml" in err and "default-taskset" in err
    assert listener.received == []


# -- Ctrl-C before the POST ---------------------------------------------------------------------


def test_ctrl_c_before_the_post_sends_nothing(tmp_path: Path, listener: Listener) -> None:
    """The taskset lookup hangs (the socket never answers); Ctrl-C there: exit 130, no POST."""
    path = job_file(tmp_path)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("NMP_", "NEMO_PLATFORM_"))}
    proc = subprocess.Popen(
        [str(EVALSUBMIT), "submit", f"{path}:{CALL_LINE}", "--base-url", listener.url],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**env, "HOME": str(tmp_path)},
    )
    deadline = time.monotonic() + 60
    while not listener.received and time.monotonic() < deadline:
        time.sleep(0.1)
    assert listener.received, "the taskset lookup never reached the socket"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "nothing was sent" in err and out == ""
    requests = [r.split(b" ", 2)[:2] for r in listener.received]
    assert requests == [[b"GET", b"/apis/evaluator/v2/workspaces/qa/tasksets/smoke"]]


# -- the CLI stays light ------------------------------------------------------------------------


def test_importing_the_cli_does_not_import_the_http_client() -> None:
    code = (
        "import sys, evalsubmit.cli, evalsubmit.cli.submit\n"
        "heavy = [m for m in sys.modules if m == 'httpx' or m.startswith('evalsubmit.platform')]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- the shared decision ------------------------------------------------------------------------


def report_of(text: str, tmp_path: Path):  # type: ignore[no-untyped-def]
    path = tmp_path / "job.py"
    path.write_text(text, encoding="utf-8")
    return analyze_source(text, path=path, project=Project(tmp_path))


def test_position_on_line_is_where_the_editors_code_action_points(tmp_path: Path) -> None:
    report = report_of(JOB, tmp_path)
    accepted = {c.span.line: (c.span.line, c.span.col) for c in candidates(report)}
    assert set(accepted) == {RUNNER_LINE, CALL_LINE}
    assert position_on_line(report, CALL_LINE) == accepted[CALL_LINE]
    assert position_on_line(report, RUNNER_LINE + 1) == accepted[RUNNER_LINE]  # its 2nd line
    assert position_on_line(report, 1) is None
    # Not accepted, still located: so the refusal names the call's reasons.
    found = position_on_line(report, UNKNOWN_CALL_LINE)
    assert found is not None
    call = report.submit_at(*found)
    assert call is not None and call.span.line == UNKNOWN_CALL_LINE


def test_plan_takes_tasks_from_code_then_argument_then_default(tmp_path: Path) -> None:
    report = report_of(JOB, tmp_path)
    call = position_on_line(report, CALL_LINE)
    runner = position_on_line(report, RUNNER_LINE)
    assert call is not None and runner is not None

    def decide(at: tuple[int, int], tasks: str | None, default: str | None):  # type: ignore[no-untyped-def]
        return plan(report, *at, tasks, default_taskset=default, name_a_taskset="say one")

    from_code = decide(call, "other/x", "dflt/y")
    assert not isinstance(from_code, Refusal) and from_code.tasks == "qa/smoke"
    assert from_code.code_workspace == "qa"
    from_argument = decide(runner, "other/x", "dflt/y")
    assert not isinstance(from_argument, Refusal) and from_argument.tasks == "other/x"
    from_default = decide(runner, None, "dflt/y")
    assert not isinstance(from_default, Refusal) and from_default.tasks == "dflt/y"
    assert from_code.target == from_argument.target == from_default.target
    assert decide(runner, None, None) == Refusal(("no taskset: say one",), needs_taskset=True)
