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

Hostile networks: these answer *every* request so (a POST stores nothing unless said):

* ``drip``: a 200 whose body comes one byte every ``drip_s`` (0.3 s), for ever;
* ``endless``: a 200 without a length that streams bytes as fast as it can (at most
  ``endless_cap`` bytes, so that a client without a limit fills its memory but not the
  machine's);
* ``huge``: a 200 announcing a 10 GB body;
* ``truncated``: a 200 announcing 4,000 bytes, closed after 40;
* ``redirect``: 307 with ``Location`` on ``redirect_to`` (another server);
* ``html``: a 200 that is an HTML page (a captive portal, a proxy's login page);
* ``secret-echo``: a 500 whose detail echoes the Authorization header in odd forms (repr,
  upper case, URL-encoded, cut at 30 characters), as a careless proxy might.

``ok``: a platform that works: tasksets exist (``GET .../tasksets/{name}``, and the list), a
POST stores the job and answers 201 after ``delay_s`` (pass 0; a longer one lets a test cancel a
request while the POST is under way), GETs answer after ``get_delay_s``, status is ``active``,
cancel answers ``cancelled``.

``FaultPlatform(mode, tls=context)`` serves over TLS with the given server context;
``tasksets=True`` answers the taskset routes as ``ok`` does in any mode (a whole submission,
taskset lookup first, meets the fault at its POST).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import ssl
from typing import Any
from urllib.parse import quote

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
HOSTILE = ("drip", "endless", "huge", "truncated", "redirect", "html", "secret-echo")


def job_json(name: str, spec: dict[str, Any]) -> dict[str, Any]:
    return {"id": f"job-{name}", "name": name, "workspace": "ws", "status": "created", "spec": spec}


class FaultPlatform:
    def __init__(
        self,
        mode: str,
        *,
        delay_s: float = 2.0,
        get_delay_s: float = 0.0,
        drip_s: float = 0.3,
        endless_cap: int = 200 * 1024 * 1024,
        redirect_to: str = "",
        tls: ssl.SSLContext | None = None,
        host: str = "127.0.0.1",
        tasksets: bool = False,
    ) -> None:
        assert mode in MODES + HOSTILE + ("ok",), mode
        self.mode = mode
        self.delay_s = delay_s
        self.get_delay_s = get_delay_s
        self.drip_s = drip_s
        self.endless_cap = endless_cap
        self.redirect_to = redirect_to
        self.tls = tls
        self.host = host
        self.tasksets = tasksets
        self.bytes_sent = 0
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
        return f"{'https' if self.tls else 'http'}://{self.host}:{self.port}"

    def count(self, method: str) -> int:
        return sum(1 for m, *_ in self.requests if m == method)

    async def __aenter__(self) -> FaultPlatform:
        self._server = await asyncio.start_server(self._serve, self.host, 0, ssl=self.tls)
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
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError, ssl.SSLError):
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
        if self.mode in HOSTILE:
            return await self._hostile(headers, writer)
        if self.mode == "slow-all":
            await asyncio.sleep(self.delay_s)
        if method == "POST" and path.endswith("/agent-evaluate/jobs"):
            return await self._post(json.loads(body), writer)
        works = self.mode == "ok" or (self.tasksets and "/tasksets" in path)
        if works and (answer := self._working(method, path)) is not None:
            if method == "GET":
                await asyncio.sleep(self.get_delay_s)
            await self._send(writer, *answer)
            return True
        if method == "GET" and "/agent-evaluate/jobs/" in path:
            name = path.rsplit("/", 1)[-1]
            if name in self.jobs:
                await self._send(writer, 200, self.jobs[name])
            else:
                await self._send(writer, 404, {"detail": f"Job '{name}' not found."})
            return True
        await self._send(writer, 404, {"detail": "no such route"})
        return True

    def _working(self, method: str, path: str) -> tuple[int, Any] | None:
        path = path.split("?")[0]
        if method == "GET" and "/tasksets/" in path:
            name = path.rsplit("/", 1)[-1]
            return 200, {"name": name, "workspace": "ws", "tasks": ["ws/task-a"]}
        if method == "GET" and path.endswith("/tasksets"):
            page = {"data": [{"name": "smoke", "workspace": "ws"}], "pagination": {}}
            return 200, page
        if method == "GET" and path.endswith("/status"):
            name = path.rsplit("/", 2)[-2]
            if name in self.jobs:
                return 200, {"name": name, "status": self.jobs[name]["status"]}
            return 404, {"detail": "not found"}
        if method == "POST" and path.endswith("/cancel"):
            name = path.rsplit("/", 2)[-2]
            if name in self.jobs:
                self.jobs[name]["status"] = "cancelled"
                return 200, self.jobs[name]
            return 404, {"detail": "not found"}
        return None

    async def _hostile(self, headers: dict[str, str], writer: asyncio.StreamWriter) -> bool:
        mode = self.mode
        if mode == "drip":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n")
            writer.write(b"Content-Length: 100000\r\n\r\n")
            while True:
                writer.write(b" ")
                await writer.drain()
                self.bytes_sent += 1
                await asyncio.sleep(self.drip_s)
        if mode == "endless":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n[")
            chunk = b"1," * 32768
            while self.bytes_sent < self.endless_cap:
                writer.write(chunk)
                await writer.drain()
                self.bytes_sent += len(chunk)
            return False
        if mode == "huge":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 10000000000\r\n\r\n{")
            await writer.drain()
            return False
        if mode == "truncated":
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 4000\r\n\r\n" + b'{"a": 1' * 5)
            await writer.drain()
            return False
        if mode == "redirect":
            writer.write(
                b"HTTP/1.1 307 Temporary Redirect\r\nLocation: "
                + self.redirect_to.encode()
                + b"\r\nContent-Length: 0\r\n\r\n"
            )
            await writer.drain()
            return True
        if mode == "html":
            page = b"<html><body>Please log in to the network</body></html>"
            await self._send(writer, 200, page, content_type="text/html")
            return True
        auth = headers.get("authorization", "")
        echoed = [repr(auth.encode()), auth.upper(), quote(auth, safe=""), auth[:30] + "..."]
        await self._send(writer, 500, {"detail": f"proxy error for {' / '.join(echoed)}"})
        return True

    async def _post(self, body: dict[str, Any], writer: asyncio.StreamWriter) -> bool:
        name = str(body.get("name"))
        job = job_json(name, body.get("spec") or {})
        mode = self.mode
        if mode in {"malformed", "close-stored", "slow", "slow-all", "502-stored", "ok"}:
            self.jobs[name] = job
        if mode == "ok":
            job["status"] = "active"
            await asyncio.sleep(self.delay_s)
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
