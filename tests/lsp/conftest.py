"""pytest-lsp fixtures: the real server over stdio, driven by a VS Code-like client.

``client`` gets pushed diagnostics (VS Code's capabilities without pull support, plus
``versionSupport``); ``pull_client`` declares ``textDocument/diagnostic`` and refresh support.
Both use ``debounceMs: 0`` and a fresh workspace folder (``tmp_path``).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
import pytest_lsp
from lsp_helpers import CONFIG, RecordingClient, make_client, start
from pytest_lsp import ClientServerConfig

from fake_env import installed_env  # noqa: F401  (a venv with fake installed packages)
from platform_service import platform_service  # noqa: F401  (the real platform, session-wide)


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: RecordingClient, tmp_path: Path) -> AsyncIterator[RecordingClient]:
    await start(lsp_client, tmp_path, pull=False)
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=CONFIG)
async def pull_client(
    lsp_client: RecordingClient, tmp_path: Path
) -> AsyncIterator[RecordingClient]:
    await start(lsp_client, tmp_path, pull=True)
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return tmp_path


INSTRUMENTED = ClientServerConfig(
    server_command=[sys.executable, str(Path(__file__).parent / "instrumented_server.py")],
    client_factory=make_client,
)


@pytest_lsp.fixture(config=INSTRUMENTED)
async def faulty_client(
    lsp_client: RecordingClient, tmp_path: Path
) -> AsyncIterator[RecordingClient]:
    """The server with injected faults (see instrumented_server.py)."""
    await start(lsp_client, tmp_path, pull=False)
    yield lsp_client
    await lsp_client.shutdown_session()


@pytest_lsp.fixture(config=INSTRUMENTED)
async def faulty_pull_client(
    lsp_client: RecordingClient, tmp_path: Path
) -> AsyncIterator[RecordingClient]:
    """The server with injected faults, for a client that pulls diagnostics."""
    await start(lsp_client, tmp_path, pull=True)
    yield lsp_client
    await lsp_client.shutdown_session()
