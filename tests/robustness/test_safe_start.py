"""Every documented way to start the server is safe by construction in a hostile workspace.

``python -m evalsubmit.lsp`` started in the workspace (as an editor does) puts the workspace
first on ``sys.path``, and ``runpy`` imports modules (``types``, ``functools``, ``importlib``...)
before any line of evalsubmit can act: a workspace ``types.py`` runs. So only ``evalsubmit
serve`` and ``python -P -m evalsubmit.lsp`` are documented (the VS Code client uses the latter).
Here each documented command line is started in a workspace that plants a module of every name
``runpy`` and the server import, and must leave no sentinel; the undocumented form is the
positive control that the plants do fire.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from lsprotocol import types

from .lsp_support import hover, open_doc, published_for, running_server, server_alive, wait_until

REPO = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
# Named in issue 15 (what runpy imports before the server's own guard can act), then modules
# the server imports later, and the server's own package name.
PLANTED_MODULES = (
    "types",
    "warnings",
    "functools",
    "operator",
    "keyword",
    "reprlib",
    "contextlib",
    "evalsubmit",
    "argparse",
    "logging",
    "json",
    "asyncio",
    "typing",
    "enum",
    "re",
    "pathlib",
    "threading",
    "ssl",
    "socket",
    "httpx",
    "pydantic",
    "yaml",
)
PLANTED_PACKAGES = ("collections", "importlib", "encodings", "email", "concurrent", "lsprotocol")
DOCUMENTED = {
    "evalsubmit serve": [str(BIN / "evalsubmit"), "serve"],
    "python -P -m evalsubmit.lsp": [sys.executable, "-P", "-m", "evalsubmit.lsp"],
}
DOCS = (
    "README.md",
    "vscode-client/README.md",
    *sorted(p.relative_to(REPO).as_posix() for p in (REPO / "docs").glob("*.md")),
)
"""Every page of the docs: docs/benchmarks.md, left out of an earlier list, kept the unsafe form."""


def plant(ws: Path, sentinels: Path) -> None:
    sentinels.mkdir(parents=True, exist_ok=True)

    def line(name: str) -> str:
        return f"open({str(sentinels / name)!r}, 'w').close()\n"

    for name in PLANTED_MODULES:
        (ws / f"{name}.py").write_text(line(name))
    for name in PLANTED_PACKAGES:
        (ws / name).mkdir()
        (ws / name / "__init__.py").write_text(line(name))
    (ws / "job.py").write_text("from nemo_platform import NeMoPlatform\nclient = NeMoPlatform()\n")


def test_the_planted_modules_fire_when_started_without_P(tmp_path: Path) -> None:
    """Positive control: the undocumented form runs workspace code before evalsubmit's."""
    sentinels = tmp_path / "sentinels"
    ws = tmp_path / "ws"
    ws.mkdir()
    plant(ws, sentinels)
    subprocess.run(
        [sys.executable, "-m", "evalsubmit.lsp"],
        cwd=ws,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        timeout=60,
    )
    assert sorted(p.name for p in sentinels.iterdir()), "no planted module ran"


@pytest.mark.parametrize("documented", sorted(DOCUMENTED))
async def test_a_documented_command_line_runs_no_workspace_code(
    tmp_path: Path, documented: str
) -> None:
    sentinels = tmp_path / "sentinels"
    ws = tmp_path / "ws"
    ws.mkdir()
    plant(ws, sentinels)
    command = DOCUMENTED[documented]
    async with running_server(ws, {"debounceMs": 0}, command=command, cwd=ws) as client:
        job = ws / "job.py"
        uri = open_doc(client, job, job.read_text())
        await wait_until(lambda: published_for(client, uri, 1), 60, "diagnostics")
        await hover(client, uri, 1, 10)
        info = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="evalsubmit.debugInfo")
        )
        assert info["versions"]["evalsubmit"]
        assert server_alive(client)
    assert sorted(p.name for p in sentinels.iterdir()) == []


def test_the_docs_show_only_the_safe_command_lines() -> None:
    """Every `-m evalsubmit.lsp` a user may copy from the docs carries `-P`."""
    # the interpreter's own options before `-m`, e.g. `python -E -s -P -u -m evalsubmit.lsp`
    started = re.compile(r"((?:\s-[A-Za-z]+)*)\s+-m evalsubmit\.lsp(?!\.settings)")
    found = [
        f"{name}: {line.strip()}"
        for name in DOCS
        for line in (REPO / name).read_text(encoding="utf-8").splitlines()
        for options in started.findall(line)
        if "-P" not in options.split() and "without" not in line
    ]
    assert found == []


def test_the_unsafe_form_says_so_and_only_it(tmp_path: Path) -> None:
    def stderr_of(*args: str) -> str:
        proc = subprocess.run(
            [sys.executable, *args],
            cwd=tmp_path,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=60,
        )
        return proc.stderr

    assert "without -P" in stderr_of("-m", "evalsubmit.lsp")
    assert "without -P" not in stderr_of("-P", "-m", "evalsubmit.lsp")
    assert "without -P" not in stderr_of("-m", "evalsubmit.lsp.settings", "--schema")
