"""One HTTP exchange with the platform, bounded in time and in size.

httpx's timeouts bound each read, not the request: a proxy that drips a byte every 0.3 s keeps a
request alive for hours under ``timeout=1``. And ``response.content`` reads whatever comes, an
endless body included. Here every exchange has one deadline from connecting to the last byte
(``asyncio.timeout``), and the body is streamed and refused past ``max_bytes``.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx

from evalsubmit.core.records import record

MAX_RESPONSE_BYTES = 16 * 1024 * 1024
"""Far above any answer of the routes used (a job, a page of 100 tasksets, 10,000 log lines)."""


class DeadlineExceeded(Exception):
    """The exchange did not finish within its deadline (it may have reached the server)."""


class ResponseTooLarge(Exception):
    """The answer's body passed ``max_bytes``; reading stopped there."""

    def __init__(self, status_code: int, max_bytes: int) -> None:
        super().__init__(f"the answer is larger than {max_bytes // (1024 * 1024)} MiB")
        self.status_code = status_code


@record
class Answer:
    status_code: int
    content: bytes
    content_type: str
    location: str | None

    @property
    def is_success(self) -> bool:
        return 200 <= self.status_code < 300

    @property
    def is_redirect(self) -> bool:
        return 300 <= self.status_code < 400

    def json(self) -> Any:
        """The body as JSON (``ValueError`` when it is not)."""
        return json.loads(self.content)

    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")


async def exchange(
    http: httpx.AsyncClient,
    method: str,
    path: str,
    *,
    deadline_s: float,
    max_bytes: int = MAX_RESPONSE_BYTES,
    params: dict[str, Any] | None = None,
    json_body: Any = None,
) -> Answer:
    """Send one request and read its whole answer within ``deadline_s``.

    Raises httpx's transport errors, :class:`DeadlineExceeded` or :class:`ResponseTooLarge`."""
    request = http.build_request(method, path, params=params, json=json_body)
    try:
        async with asyncio.timeout(deadline_s):
            response = await http.send(request, stream=True)
            try:
                return await _read(response, max_bytes)
            finally:
                await response.aclose()
    except TimeoutError:
        raise DeadlineExceeded() from None


async def _read(response: httpx.Response, max_bytes: int) -> Answer:
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > max_bytes:
        raise ResponseTooLarge(response.status_code, max_bytes)
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.aiter_bytes():
        size += len(chunk)
        if size > max_bytes:
            raise ResponseTooLarge(response.status_code, max_bytes)
        chunks.append(chunk)
    return Answer(
        status_code=response.status_code,
        content=b"".join(chunks),
        content_type=response.headers.get("content-type", "").split(";")[0].strip().lower(),
        location=response.headers.get("location"),
    )
