"""``run_server``: the TCP transport answers ``initialize`` (the other tests use stdio)."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time


def _frame(payload: dict[str, object]) -> bytes:
    body = json.dumps(payload).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def _read_message(sock: socket.socket) -> dict[str, object]:
    data = b""
    while b"\r\n\r\n" not in data:
        data += sock.recv(4096)
    header, _, rest = data.partition(b"\r\n\r\n")
    length = int(header.split(b"Content-Length:")[1].split(b"\r\n")[0])
    while len(rest) < length:
        rest += sock.recv(4096)
    return json.loads(rest[:length])  # type: ignore[no-any-return]


def test_tcp_initialize(unused_tcp_port: int) -> None:
    server = subprocess.Popen(
        [sys.executable, "-m", "evalsubmit.lsp", "--tcp", f"127.0.0.1:{unused_tcp_port}"],
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                sock = socket.create_connection(("127.0.0.1", unused_tcp_port), timeout=20)
                break
            except OSError:
                assert time.monotonic() < deadline, "server did not listen"
                time.sleep(0.1)
        with sock:
            params = {"processId": None, "rootUri": None, "capabilities": {}}
            sock.sendall(
                _frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
            )
            reply = _read_message(sock)
            assert reply["id"] == 1
            result = reply["result"]
            assert isinstance(result, dict)
            assert result["serverInfo"]["name"] == "evalsubmit"
            caps = result["capabilities"]
            assert caps["hoverProvider"] and caps["codeActionProvider"]
            assert set(caps["executeCommandProvider"]["commands"]) >= {
                "evalsubmit.submit",
                "evalsubmit.debugInfo",
            }
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_bad_tcp_argument_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "evalsubmit.lsp", "--tcp", "nonsense"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "HOST:PORT" in done.stderr
