"""Security: the server never imports or executes user code, and the platform token never
leaks (logs, diagnostics, hovers, debugInfo, command results, error messages, stderr).

The workspace's modules create a sentinel file when imported or run: top-level code, a
package ``__init__.py``, a module imported by the analysed file, a ``conftest.py``,
``sitecustomize``/``usercustomize``, a ``.pth`` file, a workspace ``.venv/bin/python`` (what a
jedi-style environment lookup would execute), and modules named like the standard library.
The selected Python environment (the ``python`` setting) holds an installed package and an
editable install the job imports, the editable install's finder module, a ``.pth`` import
line and a ``sitecustomize``: they are read, never run. A positive control proves each trick
fires when the code *is* imported.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types

from evalsubmit.analysis import Project, analyze_source
from fake_env import make_venv, write_dist_info

from .fault_server import FaultPlatform
from .lsp_support import (
    Client,
    hover,
    open_doc,
    published_for,
    running_server,
    server_alive,
    wait_until,
)

SHADOWED = ("argparse", "logging", "json", "uuid", "typing_extensions", "pydantic", "httpx")


def sentinel_line(folder: Path, name: str) -> str:
    return f"open({str(folder / name)!r}, 'w').close()\n"


JOB = """\
{sentinel}import helpers
import pkg.sub
from runners import gym_runner
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk import RunConfig
from nemo_platform import NeMoPlatform

client = NeMoPlatform(workspace="qa")
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=gym_runner)
client.evaluator.submit(tasks="qa/smoke", target=gym_runner, config=RunConfig(parallelism=2))
helpers.run(gym_runner)
from teamlib import make_runner
import teamedit
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=make_runner())
teamedit.build()
"""
INSTALLED = """\
{sentinel}from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import HarborAgentTaskRunner


def make_runner():
    return HarborAgentTaskRunner()


def build():
    return make_runner()
"""
RUNNERS = """\
{sentinel}from nemo_evaluator_sdk.agent_eval.runtimes.gym import (
    GymAgentTaskRunner,
    GymRuntimeConfig,
)

gym_runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(agent="simple_agent", agent_config="c.yaml", resources_server="mcqa")
)
"""


def make_workspace(root: Path, sentinels: Path) -> Path:
    """A workspace whose every module, if imported or executed, leaves a file in ``sentinels``."""
    ws = root / "ws"
    (ws / "pkg").mkdir(parents=True)
    sentinels.mkdir(parents=True, exist_ok=True)
    (ws / "job.py").write_text(JOB.format(sentinel=sentinel_line(sentinels, "job")))
    (ws / "runners.py").write_text(RUNNERS.format(sentinel=sentinel_line(sentinels, "runners")))
    for name in ("helpers", "conftest", "sitecustomize", "usercustomize", "setup", "noxfile"):
        (ws / f"{name}.py").write_text(sentinel_line(sentinels, name) + "def run(x): return x\n")
    (ws / "__main__.py").write_text(sentinel_line(sentinels, "__main__"))
    (ws / "pkg" / "__init__.py").write_text(sentinel_line(sentinels, "pkg"))
    (ws / "pkg" / "sub.py").write_text(sentinel_line(sentinels, "pkg.sub"))
    (ws / "evil.pth").write_text("import os; " + sentinel_line(sentinels, "pth"))
    for name in SHADOWED:
        (ws / f"{name}.py").write_text(sentinel_line(sentinels, f"shadow-{name}"))
    venv_python = ws / ".venv" / "bin" / "python"
    venv_python.parent.mkdir(parents=True)
    venv_python.write_text(
        f'#!/bin/sh\ntouch {sentinels / "venv-python"}\nexec {sys.executable} "$@"\n'
    )
    venv_python.chmod(0o755)
    (ws / ".venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    make_environment(root, sentinels)
    return ws


def make_environment(root: Path, sentinels: Path) -> Path:
    """The selected Python environment: a venv holding an installed package, an editable
    install (setuptools' finder), a ``.pth`` import line and a ``sitecustomize``, each leaving
    a sentinel when run; nemo-platform 0.7.1's metadata. Returns its interpreter."""
    python, site = make_venv(root / "env")
    (site / "teamlib").mkdir(parents=True)
    (site / "teamlib" / "__init__.py").write_text(
        sentinel_line(sentinels, "env-teamlib") + "from .runners import make_runner\n"
    )
    (site / "teamlib" / "runners.py").write_text(
        INSTALLED.format(sentinel=sentinel_line(sentinels, "env-teamlib.runners"))
    )
    source = root / "teamedit-src" / "teamedit"
    source.mkdir(parents=True)
    (source / "__init__.py").write_text(
        INSTALLED.format(sentinel=sentinel_line(sentinels, "env-teamedit"))
    )
    finder = "__editable___teamedit_1_0_finder"
    (site / "__editable__.teamedit-1.0.pth").write_text(f"import {finder}; {finder}.install()\n")
    (site / f"{finder}.py").write_text(
        sentinel_line(sentinels, "env-finder")
        + f"MAPPING = {{'teamedit': {str(source)!r}}}\n"
        + "import sys, importlib.util\n"
        + "class _Finder:\n"
        + "    @classmethod\n"
        + "    def find_spec(cls, name, path=None, target=None):\n"
        + "        if name in MAPPING:\n"
        + "            init = MAPPING[name] + '/__init__.py'\n"
        + "            return importlib.util.spec_from_file_location(name, init)\n"
        + "def install():\n"
        + "    sys.meta_path.append(_Finder)\n"
    )
    (site / "evil-env.pth").write_text("import os; " + sentinel_line(sentinels, "env-pth"))
    (site / "sitecustomize.py").write_text(sentinel_line(sentinels, "env-sitecustomize"))
    write_dist_info(site, "nemo-platform", "0.7.1")
    return python


def server_settings(tmp_path: Path) -> dict[str, Any]:
    return {"debounceMs": 0, "python": str(tmp_path / "env" / "bin" / "python")}


def fired(sentinels: Path) -> list[str]:
    return sorted(p.name for p in sentinels.iterdir())


def test_the_sentinels_fire_when_the_code_is_imported(tmp_path: Path) -> None:
    """Positive control: importing or running the workspace's code leaves the sentinels."""
    sentinels = tmp_path / "sentinels"
    ws = make_workspace(tmp_path, sentinels)
    imports = "; ".join(
        f"exec('try:\\n import {m}\\nexcept Exception: pass')"
        for m in ("helpers", "pkg.sub", "conftest", "job", "runners", *SHADOWED)
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    code = f"import sys, site; sys.path.insert(0, {str(ws)!r}); site.addsitedir({str(ws)!r}); "
    subprocess.run([sys.executable, "-I", "-c", code + imports], check=True, env=env)
    subprocess.run([str(ws / ".venv" / "bin" / "python"), "-c", "pass"], check=True)
    env_python = tmp_path / "env" / "bin" / "python"
    guarded = "for m in ('teamlib', 'teamedit'):\n try: __import__(m)\n except Exception: pass"
    subprocess.run([str(env_python), "-c", guarded], check=True, env=env)  # site runs too
    got = set(fired(sentinels))
    expected = {"helpers", "pkg", "pkg.sub", "conftest", "job", "runners", "pth", "venv-python"}
    expected |= {"env-teamlib", "env-teamlib.runners", "env-teamedit", "env-finder", "env-pth"}
    expected |= {"env-sitecustomize"}
    assert expected <= got, got
    assert {f"shadow-{m}" for m in ("uuid", "typing_extensions", "pydantic", "httpx")} <= got


def test_the_engine_never_imports_user_code(tmp_path: Path) -> None:
    sentinels = tmp_path / "sentinels"
    ws = make_workspace(tmp_path, sentinels)
    project = Project(ws, python=tmp_path / "env" / "bin" / "python")
    for path in sorted(ws.rglob("*.py")):
        analyze_source(path.read_text(), path=path, project=project)
    report = analyze_source((ws / "job.py").read_text(), path=ws / "job.py", project=project)
    # runners.py and the installed teamlib were read (not imported); 0.7.1's metadata too
    assert [f.code for f in report.findings] == ["ES111", "ES102", "ES106"]
    assert fired(sentinels) == []


async def _exercise(client: Client, ws: Path) -> list[Any]:
    """Everything an editor does with a file: open, hovers, completion, definition, edits,
    saves, watched-file changes, debugInfo. Returns every answer (for the leak check)."""
    job = ws / "job.py"
    text = job.read_text()
    uri = open_doc(client, job, text)
    await wait_until(lambda: published_for(client, uri, 1), 60, "job.py diagnostics")
    answers: list[Any] = [published_for(client, uri, 1)]
    lines = text.splitlines()
    positions = [
        (i, line.index(word) + 1)
        for i, line in enumerate(lines)
        for word in ("helpers", "gym_runner", "submit", "pkg", "RunConfig", "teamlib", "teamedit")
        if word in line
    ]
    for line, col in positions:
        answers.append(await hover(client, uri, line, col))
        position = types.Position(line=line, character=col)
        doc = types.TextDocumentIdentifier(uri=uri)
        for method, params in (
            (types.TEXT_DOCUMENT_COMPLETION, types.CompletionParams(doc, position)),
            (types.TEXT_DOCUMENT_DEFINITION, types.DefinitionParams(doc, position)),
            (types.TEXT_DOCUMENT_SIGNATURE_HELP, types.SignatureHelpParams(doc, position)),
        ):
            try:
                answers.append(
                    await client.protocol.send_request_async(method, params)  # type: ignore[no-untyped-call]
                )
            except Exception as exc:  # not offered by the server: method not found
                answers.append(repr(exc))
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text + "helpers.")],
        )
    )
    client.text_document_did_save(
        types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(uri=(ws / name).as_uri(), type=types.FileChangeType.Changed)
                for name in ("runners.py", "helpers.py", "pkg/__init__.py", "conftest.py")
            ]
        )
    )
    await wait_until(lambda: published_for(client, uri, 2), 60, "job.py v2 diagnostics")
    answers.append(await hover(client, uri, positions[0][0], positions[0][1]))
    answers.append(
        await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="evalsubmit.debugInfo")
        )
    )
    return answers


async def test_the_server_never_imports_user_code(tmp_path: Path) -> None:
    sentinels = tmp_path / "sentinels"
    ws = make_workspace(tmp_path, sentinels)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with running_server(ws, server_settings(tmp_path), cwd=elsewhere) as client:
        answers = await _exercise(client, ws)
        assert server_alive(client)
    assert any(isinstance(a, types.Hover) for a in answers)
    first = answers[0]
    assert isinstance(first, types.PublishDiagnosticsParams)
    # the selected environment was read: teamlib's Harbor runner, nemo-platform 0.7.1
    assert {"ES106", "ES111"} <= {str(d.code) for d in first.diagnostics}
    assert fired(sentinels) == []


async def test_server_started_in_the_workspace_like_vscode(tmp_path: Path) -> None:
    sentinels = tmp_path / "sentinels"
    ws = make_workspace(tmp_path, sentinels)
    command = [sys.executable, "-m", "evalsubmit.lsp"]  # without -P: the guard must act
    try:
        async with running_server(ws, server_settings(tmp_path), cwd=ws, command=command) as client:
            await _exercise(client, ws)
    except Exception:
        pass  # a shadowed module may break the server; the sentinel decides
    assert fired(sentinels) == []


async def test_server_started_in_the_workspace_with_safe_path(tmp_path: Path) -> None:
    sentinels = tmp_path / "sentinels"
    ws = make_workspace(tmp_path, sentinels)
    command = [sys.executable, "-P", "-m", "evalsubmit.lsp"]
    async with running_server(ws, server_settings(tmp_path), cwd=ws, command=command) as client:
        await _exercise(client, ws)
        assert server_alive(client)
    assert fired(sentinels) == []


INSTRUMENTED = Path(__file__).resolve().parents[1] / "lsp" / "instrumented_server.py"


async def test_the_server_starts_no_process(tmp_path: Path) -> None:
    """`platform.platform()` ran `uname` through PATH: with `.` first in PATH, a workspace's
    `uname` ran when the VS Code client asked for debug info (on every start). The server must
    start no process at all: an audit hook (instrumented_server.py) records every attempt, and
    executables planted in the workspace leave sentinels."""
    sentinels = tmp_path / "sentinels"
    ws = make_workspace(tmp_path, sentinels)
    for tool in ("uname", "lsb_release", "ldconfig", "sh", "git", "python3", "openssl"):
        planted = ws / tool
        planted.write_text(f"#!/bin/sh\ntouch {sentinels / ('exec-' + tool)}\n")
        planted.chmod(0o755)
    spawn_log = tmp_path / "spawns.log"
    env = {
        **os.environ,
        "PATH": f".:{os.environ.get('PATH', '')}",
        "EVALSUBMIT_TEST_SPAWN_LOG": str(spawn_log),
    }
    settings = {
        "debounceMs": 0,
        "platform": {"baseUrl": "http://127.0.0.1:9", "token": "t0k3n-xyz"},
    }
    command = [sys.executable, str(INSTRUMENTED)]
    async with running_server(ws, settings, command=command, cwd=ws, env=env) as client:
        await _exercise(client, ws)
        for name, args in (
            ("evalsubmit.listTasksets", []),
            ("evalsubmit.jobStatus", [{"name": "evalsubmit-x"}]),
            ("evalsubmit.debugInfo", []),
        ):
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(command=name, arguments=args)
            )
        assert server_alive(client)
    assert fired(sentinels) == []
    assert not spawn_log.exists(), spawn_log.read_text()


# -- the token --------------------------------------------------------------------------------

TOKEN = "nvapi-SECRET-robust-4c2f9e7a1b"


def _texts(value: Any) -> str:
    try:
        return json.dumps(value, default=repr)
    except (TypeError, ValueError):
        return repr(value)


async def test_token_never_leaks_and_a_failing_platform_leaves_the_server_running(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    sentinels = tmp_path / "sentinels"
    ws = make_workspace(tmp_path, sentinels)
    async with FaultPlatform("500") as platform:
        settings: dict[str, Any] = {
            **server_settings(tmp_path),
            "logLevel": "debug",
            "platform": {"baseUrl": platform.base_url, "token": TOKEN, "workspace": "qa"},
        }
        async with running_server(ws, settings) as client:
            answers = await _exercise(client, ws)
            uri = (ws / "job.py").as_uri()
            # Settings re-read (the token changes and a bad value is reported, not echoed).
            client.set_configuration(
                {**settings, "platform": {**settings["platform"], "token": TOKEN + "-2"}},
                section="evalsubmit",
            )
            client.set_configuration({"debounceMs": "not a number"}, section="evalsubmit.bogus")
            client.workspace_did_change_configuration(
                types.DidChangeConfigurationParams(settings={"evalsubmit": settings})
            )
            # Submitting against the failing platform, and the other commands.
            submit_args = {"uri": uri, "line": 9, "character": 16, "tasks": "qa/smoke"}
            for command, args in (
                ("evalsubmit.submit", [submit_args]),
                ("evalsubmit.submit", []),
                ("evalsubmit.listTasksets", []),
                ("evalsubmit.jobStatus", [{"name": "evalsubmit-x", "workspace": "qa"}]),
                ("evalsubmit.debugInfo", []),
            ):
                try:
                    answers.append(
                        await client.workspace_execute_command_async(
                            types.ExecuteCommandParams(command=command, arguments=args)
                        )
                    )
                except Exception as exc:
                    answers.append(repr(exc))
            # The server keeps running and answering.
            assert server_alive(client)
            answers.append(await hover(client, uri, 9, 20))
            assert answers[-1] is not None
            logs = [m.message for m in client.log_messages]
            shown = [m.message for m in client.messages]
            published = [p for params in client.published.values() for p in params]
    captured = capfd.readouterr()
    haystacks = {
        "window/logMessage": "\n".join(logs),
        "window/showMessage": "\n".join(shown),
        "diagnostics": _texts([types.PublishDiagnosticsParams.__repr__(p) for p in published]),
        "answers (hovers, debugInfo, commands)": _texts(answers),
        "server stderr": captured.err,
        "stdout": captured.out,
    }
    assert logs, "the server logged nothing at debug level"
    for where, text in haystacks.items():
        assert TOKEN not in text, f"the token leaked into {where}"
    assert fired(sentinels) == []
