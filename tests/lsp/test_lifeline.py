"""The server leaves with its editor (docs/reliability.md, "Scheduling"): when its stdin ends,
and when the process named by ``initialize``'s ``processId`` is gone, within 3 s, even while
an analysis runs or its event loop is stuck. Each case runs ``REPEAT`` times (20 by default),
a few servers at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

REPEAT = int(os.environ.get("EVALSUBMIT_SCHEDULING_REPEAT", "20"))
PARALLEL = 4
EXIT_WITHIN_S = 3.0
INSTRUMENTED = str(Path(__file__).parent / "instrumented_server.py")
SERVER = ["-m", "evalsubmit.lsp"]
SDK = "from nemo_platform import NeMoPlatform\nclient = NeMoPlatform()\n"


class Wire:
    """A bare JSON-RPC peer over the server's stdio (no client library between us and it)."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self._ids = 0

    def send(self, method: str, params: Any, *, request: bool = True) -> int:
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self._ids += 1
            message["id"] = self._ids
        body = json.dumps(message).encode()
        assert self.process.stdin is not None
        self.process.stdin.write(b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
        return self._ids

    async def response(self, msg_id: int, timeout: float = 60.0) -> dict[str, Any]:
        return await asyncio.wait_for(self._response(msg_id), timeout)

    async def _response(self, msg_id: int) -> dict[str, Any]:
        stdout = self.process.stdout
        assert stdout is not None
        while True:
            length = 0
            while (line := await stdout.readline()) not in (b"\r\n", b""):
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            message = json.loads(await stdout.readexactly(length))
            if message.get("id") == msg_id and "method" not in message:
                return dict(message)

    async def initialize(self, root: Path, process_id: int | None) -> None:
        msg_id = self.send(
            "initialize",
            {
                "processId": process_id,
                "rootUri": root.as_uri(),
                "capabilities": {},
                "initializationOptions": {"evalsubmit": {"debounceMs": 0}},
            },
        )
        await self.response(msg_id)
        self.send("initialized", {}, request=False)

    def open(self, path: Path, text: str) -> None:
        self.send(
            "textDocument/didOpen",
            {
                "textDocument": {
                    "uri": path.as_uri(),
                    "languageId": "python",
                    "version": 1,
                    "text": text,
                }
            },
            request=False,
        )

    def hover(self, path: Path, line: int) -> int:
        return self.send(
            "textDocument/hover",
            {"textDocument": {"uri": path.as_uri()}, "position": {"line": line, "character": 1}},
        )


async def _server(script: list[str], cwd: Path) -> Wire:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *script,
        cwd=cwd,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    return Wire(process)


async def _exits_within(process: asyncio.subprocess.Process, seconds: float) -> float:
    began = time.monotonic()
    try:
        await asyncio.wait_for(process.wait(), seconds)
    except TimeoutError:
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()
        raise AssertionError(f"the server was still running {seconds:g} s later") from None
    return time.monotonic() - began


async def _repeat(case: Callable[[Path], Awaitable[float]], root: Path) -> list[float]:
    """Run ``case`` REPEAT times, PARALLEL at a time; the exit times measured."""
    gate = asyncio.Semaphore(PARALLEL)

    async def one(i: int) -> float:
        async with gate:
            folder = root / f"run{i}"
            folder.mkdir()
            return await case(folder)

    return list(await asyncio.gather(*(one(i) for i in range(REPEAT))))


async def _stdin_closed_while(root: Path, state: str) -> float:
    wire = await _server([INSTRUMENTED] if state != "idle" else SERVER, root)
    await wire.initialize(root, os.getpid())
    if state == "analysing":
        wire.open(root / "slow.py", SDK + "# test: sleep=30\n")
        await asyncio.sleep(0.5)
    elif state == "stalled":
        path = root / "stall.py"
        wire.open(path, SDK + "x = 1  # STALL=30\n")
        await wire.response(
            wire.send("textDocument/diagnostic", {"textDocument": {"uri": path.as_uri()}})
        )
        wire.hover(path, 2)
        await asyncio.sleep(0.5)
    assert wire.process.stdin is not None
    wire.process.stdin.close()
    return await _exits_within(wire.process, EXIT_WITHIN_S)


@pytest.mark.parametrize("state", ["idle", "analysing", "stalled"])
async def test_exits_when_stdin_closes(tmp_path: Path, state: str) -> None:
    times = await _repeat(lambda root: _stdin_closed_while(root, state), tmp_path)
    assert max(times) < EXIT_WITHIN_S, times


async def _editor_process_gone(root: Path, state: str) -> float:
    editor = await asyncio.create_subprocess_exec(
        sys.executable, "-c", "import time; time.sleep(600)"
    )
    wire = await _server([INSTRUMENTED], root)
    try:
        await wire.initialize(root, editor.pid)
        if state == "stalled":
            path = root / "stall.py"
            wire.open(path, SDK + "x = 1  # STALL=30\n")
            await asyncio.sleep(1.0)
            wire.hover(path, 2)
            await asyncio.sleep(0.5)
        editor.send_signal(signal.SIGKILL)  # stdin stays open: only processId tells
        return await _exits_within(wire.process, EXIT_WITHIN_S)
    finally:
        with contextlib.suppress(ProcessLookupError):
            editor.kill()
        await editor.wait()
        if wire.process.returncode is None:
            wire.process.kill()
            await wire.process.wait()


@pytest.mark.parametrize("state", ["idle", "stalled"])
async def test_exits_when_the_editor_process_is_gone(tmp_path: Path, state: str) -> None:
    times = await _repeat(lambda root: _editor_process_gone(root, state), tmp_path)
    assert max(times) < EXIT_WITHIN_S, times


async def test_an_editor_process_id_from_elsewhere_is_not_watched(tmp_path: Path) -> None:
    """A processId that does not exist here at all (an editor outside a container) must not
    make the server leave at once."""
    wire = await _server(SERVER, tmp_path)
    await wire.initialize(tmp_path, 2**22 + 12345)
    path = tmp_path / "job.py"
    wire.open(path, SDK)
    await asyncio.sleep(1.5)
    answer = await wire.response(wire.hover(path, 1))
    assert "result" in answer
    assert wire.process.stdin is not None
    wire.process.stdin.close()
    await _exits_within(wire.process, EXIT_WITHIN_S)
