"""The stream from the editor, at its worst: wrong ``Content-Length``s, junk, huge lengths, and
requests the server cannot handle. The real server (``python -P -m evalsubmit.lsp``) is driven
over raw pipes, byte by byte, without an LSP client library that would refuse to send such
things.

The rules: a wrong length never desynchronises the stream for good, a huge one ends the server
cleanly with the reason on stderr (never ``MemoryError``), and every request gets a response.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

SERVER = [sys.executable, "-P", "-m", "evalsubmit.lsp"]
ANSWER_S = 20.0


def frame(message: Any, *, delta: int = 0) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % (len(body) + delta) + body


def request(msg_id: int, method: str, params: Any = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def initialize(msg_id: int = 1) -> dict[str, Any]:
    return request(msg_id, "initialize", {"processId": None, "rootUri": None, "capabilities": {}})


def hover(msg_id: int, line: int = 0, *, uri: str = "file:///nowhere/x.py") -> dict[str, Any]:
    return request(
        msg_id,
        "textDocument/hover",
        {"textDocument": {"uri": uri}, "position": {"line": line, "character": 0}},
    )


INITIALIZED = {"jsonrpc": "2.0", "method": "initialized", "params": {}}


class RawServer:
    def __init__(self, cwd: Path) -> None:
        self.process = subprocess.Popen(
            SERVER, cwd=cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert self.process.stdout is not None and self.process.stdin is not None
        os.set_blocking(self.process.stdout.fileno(), False)
        self._buffer = b""

    def send(self, data: bytes) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(data)
        self.process.stdin.flush()

    def _messages(self) -> Iterator[dict[str, Any]]:
        while True:
            head, sep, rest = self._buffer.partition(b"\r\n\r\n")
            if not sep:
                return
            length = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
            if len(rest) < length:
                return
            self._buffer = rest[length:]
            yield json.loads(rest[:length])

    def answer(self, msg_id: int | None, timeout: float = ANSWER_S) -> dict[str, Any]:
        """The response to request ``msg_id`` (notifications in between are skipped)."""
        deadline = time.monotonic() + timeout
        assert self.process.stdout is not None
        while time.monotonic() < deadline:
            for message in self._messages():
                if "method" not in message and message.get("id") == msg_id:
                    return message
            ready, _, _ = select.select([self.process.stdout], [], [], 0.1)
            if ready:
                self._buffer += self.process.stdout.read() or b""
        raise AssertionError(f"no response to request {msg_id} within {timeout} s")

    def stop(self) -> tuple[int | None, str]:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)
        assert self.process.stderr is not None
        return self.process.returncode, self.process.stderr.read().decode(errors="replace")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RawServer]:
    raw = RawServer(tmp_path)
    yield raw
    raw.stop()


def start(server: RawServer) -> None:
    server.send(frame(initialize()))
    assert "result" in server.answer(1)
    server.send(frame(INITIALIZED))


@pytest.mark.parametrize("delta", [+1, +2, -1, -2])
def test_a_wrong_content_length_does_not_desynchronise_the_stream(
    server: RawServer, delta: int
) -> None:
    start(server)
    server.send(frame(hover(2), delta=delta) + frame(hover(3)))
    first = server.answer(2)  # a body one too short is answered with a parse error
    assert "result" in first or first["error"]["code"] == -32700, first
    for msg_id in (3, 4, 5):
        if msg_id > 3:
            server.send(frame(hover(msg_id)))
        assert "result" in server.answer(msg_id)


def test_junk_between_messages_is_skipped(server: RawServer) -> None:
    start(server)
    server.send(b"GARBAGE\r\nmore garbage without a line end" + frame(hover(2)))
    assert "result" in server.answer(2)
    server.send(b"\x00\xff" * 100_000 + b"\r\n" + frame(hover(3)))
    assert "result" in server.answer(3)


def test_a_huge_content_length_ends_the_server_cleanly(server: RawServer) -> None:
    start(server)
    server.send(b"Content-Length: 99999999999\r\n\r\n{}")
    server.process.wait(15)
    code, stderr = server.stop()
    assert code == 1, stderr
    assert "MemoryError" not in stderr and "Traceback" not in stderr, stderr
    assert "99,999,999,999 bytes" in stderr and "exiting" in stderr, stderr


def test_every_request_gets_a_response(server: RawServer) -> None:
    server.send(frame(hover(10)))
    assert server.answer(10)["error"]["code"] == -32002  # before initialize
    start(server)
    server.send(frame(initialize(11)))
    assert server.answer(11)["error"]["code"] == -32600  # initialize only once
    cases = {
        12: hover(12, -1),
        13: hover(13, 2**31),
        14: request(14, "textDocument/hover"),  # no params
        15: request(15, "textDocument/hover", {"textDocument": {}}),
        16: request(16, "workspace/executeCommand", {"command": "evalsubmit.nope"}),
        17: request(17, "no/such/method", {}),
    }
    for msg_id, message in cases.items():
        server.send(frame(message))
        error = server.answer(msg_id)["error"]
        assert error["code"] in (-32602, -32601), error
    server.send(frame([1, 2, 3]))
    assert server.answer(None)["error"]["code"] == -32600
    server.send(frame(hover(18, 2**31 - 1)))  # in range, past the end: clamped, answered
    assert "result" in server.answer(18)
    server.send(frame(request(19, "shutdown")))
    assert "result" in server.answer(19)
    server.send(frame(hover(20)))
    assert server.answer(20)["error"]["code"] == -32600  # after shutdown
    server.send(frame({"jsonrpc": "2.0", "method": "exit"}))
    server.process.wait(15)
    assert server.process.returncode == 0


JOB = (
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    "from nemo_evaluator_sdk import RunConfig\n"
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig\n"
    "from nemo_platform import NeMoPlatform\n"
    'client = NeMoPlatform(workspace="qa")\n'
    "runner = GymAgentTaskRunner(\n"
    '    config=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m"))\n'
    'client.evaluator.submit(tasks=TasksetRef("qa/s"), target=runner, config=RunConfig())\n'
)
BAD_NUMBERS = [-1, 2**31, 2**31 - 1, 2**53, "0", None, 1.5]


def bad_requests(uri: str) -> list[tuple[str, Any]]:
    """(method, params) for every request the server serves, with positions out of range, of
    the wrong type, and params missing, empty or of the wrong shape (the open document's URI,
    so that positions reach the code that converts them)."""
    doc = {"uri": uri}
    cases: list[tuple[str, Any]] = []
    for method in (
        "textDocument/hover",
        "textDocument/codeAction",
        "textDocument/codeLens",
        "textDocument/diagnostic",
        "workspace/diagnostic",
        "workspace/executeCommand",
    ):
        cases += [(method, None), (method, {}), (method, []), (method, {"textDocument": {}})]
    for number in BAD_NUMBERS:
        for position in ({"line": number, "character": 0}, {"line": 0, "character": number}):
            cases.append(("textDocument/hover", {"textDocument": doc, "position": position}))
            span = {"start": position, "end": {"line": 0, "character": 0}}
            cases.append(
                (
                    "textDocument/codeAction",
                    {"textDocument": doc, "range": span, "context": {"diagnostics": []}},
                )
            )
            argument = {"uri": uri, **position, "tasks": "qa/s", "name": "x"}
            for command in (
                "evalsubmit.listTasksets",
                "evalsubmit.platformInfo",
                "evalsubmit.jobStatus",
                "evalsubmit.submit",
            ):
                cases.append(
                    ("workspace/executeCommand", {"command": command, "arguments": [argument]})
                )
    backwards = {"start": {"line": 7, "character": 80}, "end": {"line": 0, "character": 0}}
    cases.append(
        (
            "textDocument/codeAction",
            {"textDocument": doc, "range": backwards, "context": {"diagnostics": []}},
        )
    )
    for command in ("evalsubmit.debugInfo", "evalsubmit.jobStatus", "evalsubmit.submit"):
        for arguments in (None, [], [None], ["x"], [{"uri": 5}], [[]]):
            params: dict[str, Any] = {"command": command}
            if arguments is not None:
                params["arguments"] = arguments
            cases.append(("workspace/executeCommand", params))
    return cases


def test_every_request_with_bad_positions_or_params_is_answered(
    server: RawServer, tmp_path: Path
) -> None:
    """Every method the server serves, on an open document: a line of -1 or 2^31, a position
    of the wrong type, missing or malformed params. Each gets a response (a result or an
    error), and the server goes on answering (before: no response at all for some)."""
    start(server)
    uri = (tmp_path / "job.py").as_uri()
    server.send(
        frame(
            {
                "jsonrpc": "2.0",
                "method": "textDocument/didOpen",
                "params": {
                    "textDocument": {"uri": uri, "languageId": "python", "version": 1, "text": JOB}
                },
            }
        )
    )
    unanswered = []
    for msg_id, (method, params) in enumerate(bad_requests(uri), start=100):
        server.send(frame(request(msg_id, method, params)))
        try:
            answer = server.answer(msg_id, timeout=10)
        except AssertionError:
            unanswered.append((method, params))
            if len(unanswered) == 3:
                break
            continue
        assert "result" in answer or "error" in answer, answer
    assert unanswered == []
    server.send(frame(hover(99, 7, uri=uri)))
    assert "result" in server.answer(99)
    assert server.process.poll() is None


def test_protocol_chatter_is_no_warning_on_stderr(server: RawServer) -> None:
    """A cancel for a request already answered and a response nobody asked for are normal
    (editors send them on every fast edit): the editor shows stderr as warnings."""
    start(server)
    server.send(frame(hover(2)))
    assert "result" in server.answer(2)
    cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}}
    stray = {"jsonrpc": "2.0", "id": "no-such-request", "result": None}
    server.send(frame(cancel) + frame(stray) + frame(hover(3)))
    assert "result" in server.answer(3)
    _, stderr = server.stop()
    assert "unknown message id" not in stderr, stderr
