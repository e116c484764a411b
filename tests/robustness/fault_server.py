"""A tiny HTTP/1.1 "platform" on 127.0.0.1 that misbehaves on purpose (asyncio, real sockets).

Started and stopped by the test (``async with FaultPlatform(mode) as platform``); it counts
requests by method so a test can prove that no job was posted twice. Modes (what a POST of a
job gets; a GET of a job answers 200 with the job if it was stored, else 404):

* ``malformed``: 201 with a body that is not JSON (the job is stored);
* ``close-stored``: the job is stored, then the connection is closed mid-response;
* ``close-lost``: the connection is closed mid-response and nothing is stored;
* ``slow``: the job is stored, the answer comes after ``delay_s`` (past the client's timeout);
* ``slow-all``: every answer comes after ``delay_s`` (the job is stored);
* ``500``: 500 with a JSON detail, nothing stored;
* ``500-html``: 500 with an HTML page, nothing stored;
* ``502-stored``: the job is stored, then 502 (a proxy lost the answer).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any

MODES = (
    "malformed",
    "close-stored",
    "close-lost",
    "slow",
    "slow-all",
    "500",
    "500-html",
    "502-stored",
)


def job_json(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"id": f"job-{name}", "name": name, "workspace": "ws", "status": "created", "spec": spec}


class FaultPlatform:
    def __init__(self, mode: str, *, delay_s: float = 2.0) -> None:
        assert mode in MODES, mode
        self.mode = mode
        self.delay_s = delay_s
        self.jobs: dict[str, dict[str, Any]] = {}
        self.requests: list[tuple[str, str, bytes, dict[str, str]]] = []
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def port(self) -> int:
        assert self._server is not None
        return int(self._server.sockets[0].getsockname()[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def count(self, method: str) -> int:
        return sum(1 for m, *_ in self.requests if m == method)

    async def __aenter__(self) -> FaultPlatform:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        return self

    async def __aexit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._server.wait_closed(), 5)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            while await self._one(reader, writer):
                pass
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError):
            pass
        finally:
            self._tasks.discard(task)
            with contextlib.suppress(Exception):
                writer.close()

    async def _one(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        line = await reader.readline()
        if not line:
            return False
        method, path, _ = line.decode("latin-1").split(" ", 2)
        headers: dict[str, str] = {}
        while (header := await reader.readline()) not in (b"\r\n", b"\n", b""):
            key, _, value = header.decode("latin-1").partition(":")
            headers[key.strip().lower()] = value.strip()
        body = await reader.readexactly(int(headers.get("content-length", "0")))
        self.requests.append((method, path, body, headers))
        if self.mode == "slow-all":
            await asyncio.sleep(self.delay_s)
        if method == "POST" and path.endswith("/agent-evaluate/jobs"):
            return await self._post(json.loads(body), writer)
        if method == "GET" and "/agent-evaluate/jobs/" in path:
            name = path.rsplit("/", 1)[-1]
            if name in self.jobs:
                await self._send(writer, 200, self.jobs[name])
            else:
                await self._send(writer, 404, {"detail": f"Job '{name}' not found."})
            return True
        await self._send(writer, 404, {"detail": "no such route"})
        return True

    async def _post(self, body: dict[str, Any], writer: asyncio.StreamWriter) -> bool:
        name = str(body.get("name"))
        job = job_json(name, body.get("spec") or {})
        mode = self.mode
        if mode in {"malformed", "close-stored", "slow", "slow-all", "502-stored"}:
            self.jobs[name] = job
        if mode == "malformed":
            await self._send(writer, 201, b'{"name": "' + name.encode() + b'", "spec": {')
        elif mode in {"close-stored", "close-lost"}:
            head = b"HTTP/1.1 201 Created\r\nContent-Type: application/json\r\n"
            writer.write(head + b"Content-Length: 4000\r\n\r\n" + json.dumps(job).encode()[:40])
            await writer.drain()
            writer.close()
            return False
        elif mode == "slow":
            await asyncio.sleep(self.delay_s)
            await self._send(writer, 201, job)
        elif mode == "500":
            await self._send(writer, 500, {"detail": "Internal Server Error: database is locked"})
        elif mode == "500-html":
            page = b"<html><body><h1>500 Internal Server Error</h1></body></html>"
            await self._send(writer, 500, page, content_type="text/html")
        elif mode == "502-stored":
            await self._send(writer, 502, b"Bad Gateway", content_type="text/plain")
        else:
            await self._send(writer, 201, job)
        return True

    async def _send(
        self,
        writer: asyncio.StreamWriter,
        status: int,
        payload: Any,
        content_type: str = "application/json",
    ) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        head = (
            f"HTTP/1.1 {status} X\r\nContent-Type: {content_type}\r\n"
            f"Content-Length: {len(data)}\r\n\r\n"
        ).encode()
        writer.write(head + data)
        await writer.drain()
