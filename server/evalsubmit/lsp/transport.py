"""Reading LSP messages from the editor: framing that survives bad input.

pygls's reader loop (``pygls.io_.run_async``) trusts every ``Content-Length``: one off by one
desynchronises the stream for good (the server stays alive but never answers again), and
``Content-Length: 99999999999`` ends the process with ``MemoryError``. A message it cannot
structure (a request with ``line: -1``, or without ``params``) is logged and never answered.

This loop replaces it (``serve``). Its rules:

* A header line is read up to ``MAX_HEADER_LINE`` bytes; ``Content-Length`` is found anywhere
  in a line, case-insensitively, so a stream that lost its footing finds the next message again
  (what came before it is logged as skipped).
* A body longer than ``MAX_MESSAGE_BYTES`` ends the server with a logged reason: reading it
  would exhaust memory, and skipping it would mean waiting for bytes that may never come.
* A body followed by extra bytes (a ``Content-Length`` one too long swallows the next header's
  first byte) is handled, and the extra bytes go back to the stream. A body that is not JSON
  (one too short) is answered with a parse error on the request id found in it, if any.
* A request that cannot be structured gets an "invalid params" error; nothing goes unanswered.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import re
import select
import stat
import threading
from collections.abc import Awaitable, Callable
from typing import Any

from pygls.exceptions import JsonRpcException

from evalsubmit.lsp.protocol import EvalsubmitProtocol

log = logging.getLogger(__name__)

MAX_HEADER_LINE = 64 * 1024
MAX_MESSAGE_BYTES = 256 * 1024 * 1024
"""Far above any real message (a 64 MiB document escaped as JSON), far below exhausting memory."""
READ_CHUNK = 64 * 1024

_CONTENT_LENGTH = re.compile(rb"content-length[ \t]*:[ \t]*(\d+)[ \t]*\r?\n", re.IGNORECASE)
_HEADER = re.compile(rb"^[A-Za-z][A-Za-z0-9-]*[ \t]*:.*\r?\n$")
_REQUEST_ID = re.compile(r'"id"\s*:\s*(-?\d{1,18}|"(?:[^"\\]|\\.){0,200}")')

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
INVALID_PARAMS = -32602

ReadChunk = Callable[[], Awaitable[bytes]]
_GONE = (
    getattr(select, "POLLHUP", 0) | getattr(select, "POLLERR", 0) | getattr(select, "POLLNVAL", 0)
)


class FatalFraming(Exception):
    """The stream cannot be read on: the server must end (the reason is the message)."""


class FrameReader:
    """LSP frames (``Content-Length`` headers, then the body) from a source of byte chunks."""

    def __init__(self, read_chunk: ReadChunk) -> None:
        self._read_chunk = read_chunk
        self._buffer = bytearray()
        self._at_end = False
        self.skipped_bytes = 0

    async def _fill(self) -> bool:
        if self._at_end:
            return False
        chunk = await self._read_chunk()
        if not chunk:
            self._at_end = True
            return False
        self._buffer += chunk
        return True

    def unread(self, data: bytes) -> None:
        self._buffer[:0] = data

    async def _line(self) -> bytes | None:
        """The next line (with its ``\\n``); at the end of the stream, what is left, or None."""
        searched = 0
        while True:
            index = self._buffer.find(b"\n", searched)
            if index >= 0:
                line = bytes(self._buffer[: index + 1])
                del self._buffer[: index + 1]
                return line
            searched = len(self._buffer)
            if searched > MAX_HEADER_LINE:
                # Junk without a line break (a body sent without headers?): drop all but the
                # tail, which may hold the start of the next header.
                self.skipped_bytes += searched - 64
                del self._buffer[:-64]
                searched = len(self._buffer)
            if not await self._fill():
                rest = bytes(self._buffer)
                self._buffer.clear()
                return rest or None

    async def _exactly(self, size: int) -> bytes | None:
        while len(self._buffer) < size:
            if not await self._fill():
                return None
        body = bytes(self._buffer[:size])
        del self._buffer[:size]
        return body

    async def next_body(self) -> bytes | None:
        """The body of the next message; None at the end of the stream."""
        length: int | None = None
        while True:
            line = await self._line()
            if line is None:
                return None
            match = _CONTENT_LENGTH.search(line)
            if match is not None:
                if match.start() > 0:
                    self.skipped_bytes += match.start()
                digits = match.group(1).lstrip(b"0") or b"0"
                # More digits than any real length: do not even convert it.
                length = int(digits) if len(digits) <= 18 else -1
            elif not line.strip():
                if length is not None:
                    break
            elif not _HEADER.match(line):
                self.skipped_bytes += len(line)
                length = None
        if self.skipped_bytes:
            log.warning("skipped %d bytes that were not a message", self.skipped_bytes)
            self.skipped_bytes = 0
        if length < 0 or length > MAX_MESSAGE_BYTES:
            raise FatalFraming(
                f"the editor announced a message of {_shown(length)} bytes (Content-Length), "
                f"more than the {MAX_MESSAGE_BYTES} this server reads; the stream cannot be "
                "trusted any more"
            )
        return await self._exactly(length)


def _shown(length: int) -> str:
    return "more than 10^18" if length < 0 else f"{length:,}"


def decode_body(body: bytes) -> tuple[Any, bytes]:
    """``(message, extra)``: the JSON value at the start of ``body`` and the bytes after it.
    Raises ``ValueError`` when the body does not start with JSON."""
    text = body.decode("utf-8")
    start = len(text) - len(text.lstrip())
    value, end = json.JSONDecoder().raw_decode(text, start)
    rest = text[end:]
    return value, rest.lstrip().encode("utf-8") if rest.strip() else b""


def request_id_in(body: bytes) -> int | str | None:
    """The ``id`` of a request whose body could not be parsed, when it can still be read."""
    match = _REQUEST_ID.search(body.decode("utf-8", errors="replace"))
    if match is None:
        return None
    try:
        found = json.loads(match.group(1))
    except ValueError:
        return None
    return found if isinstance(found, int | str) else None


def dispatch(protocol: EvalsubmitProtocol, body: bytes, frames: FrameReader) -> None:
    """Handle one body; every request gets an answer, an error where it must."""
    try:
        raw, extra = decode_body(body)
    except ValueError as error:
        msg_id = request_id_in(body)
        log.warning("a message was not valid JSON (%s); request id: %s", error, msg_id)
        protocol.reply_error(msg_id, PARSE_ERROR, f"Parse error: the message is not JSON ({error})")
        return
    if extra:
        log.warning(
            "a message was followed by %d bytes its Content-Length did not count", len(extra)
        )
        frames.unread(extra)
    if not isinstance(raw, dict):
        protocol.reply_error(None, INVALID_REQUEST, "Invalid request: not a JSON object")
        return
    raw_id = raw.get("id")
    msg_id = raw_id if isinstance(raw_id, int | str) and not isinstance(raw_id, bool) else None
    is_request = "method" in raw and "id" in raw
    try:
        message = protocol.structure_message(raw)
    except JsonRpcException as error:
        cause = error.__cause__ or error
        if is_request:
            method = raw.get("method")
            protocol.reply_error(
                msg_id, INVALID_PARAMS, f"Invalid params for {method}: {_first_line(cause)}"
            )
        else:
            log.warning("ignoring a message that cannot be read: %s", _first_line(cause))
        return
    try:
        protocol.handle_message(message)
    except Exception:
        log.exception("internal error while handling a message")
        if is_request:
            protocol.reply_error(msg_id, -32603, "Internal error (see the server's log)")


def _first_line(error: BaseException) -> str:
    exceptions = getattr(error, "exceptions", None)
    if exceptions:
        return _first_line(exceptions[0])
    if isinstance(error, KeyError):
        return f"{error.args[0]!r} is missing" if error.args else "a field is missing"
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0] if text else ''}"[:300]


async def serve(
    protocol: EvalsubmitProtocol,
    read_chunk: ReadChunk,
    stop_event: threading.Event,
) -> str | None:
    """Read and dispatch messages until the stream ends or ``stop_event`` is set. Returns the
    reason the server must end abnormally (already logged), or None."""
    frames = FrameReader(read_chunk)
    while not stop_event.is_set():
        try:
            body = await frames.next_body()
        except FatalFraming as error:
            reason = str(error)
            log.error("exiting: %s", reason)
            return reason
        if body is None:
            return None
        dispatch(protocol, body, frames)
        await asyncio.sleep(0)  # let handlers scheduled by this message start
    return None


class StreamChunks:
    """Chunks of a blocking byte stream (stdin), read by a daemon thread: a read that never
    returns cannot hold the process at exit, and at most ``MAX_PENDING`` chunks wait in memory
    for the event loop. ``end()`` makes the reader see the end of the stream at once."""

    MAX_PENDING = 64

    def __init__(self, stream: Any, loop: asyncio.AbstractEventLoop) -> None:
        self._stream = stream
        self._loop = loop
        self._queue: asyncio.Queue[bytes] = asyncio.Queue()
        self._room = threading.Semaphore(self.MAX_PENDING)
        self._thread = threading.Thread(target=self._pump, name="evalsubmit-stdin", daemon=True)
        self._thread.start()

    def _pump(self) -> None:
        while True:
            self._room.acquire()
            try:
                chunk = self._stream.read1(READ_CHUNK)
            except (OSError, ValueError):
                chunk = b""
            try:
                self._loop.call_soon_threadsafe(self._queue.put_nowait, bytes(chunk))
            except RuntimeError:  # the loop is closed: the server has ended
                return
            if not chunk:
                return

    async def __call__(self) -> bytes:
        chunk = await self._queue.get()
        self._room.release()
        return chunk

    def end(self) -> None:
        """Call on the event loop."""
        self._queue.put_nowait(b"")


class ReadyChunks:
    """Chunks of a pipe or a socket, read on the event loop when it says the stream is readable
    (no thread between the editor's bytes and their handling: one wake-up per message, not
    two). At most ``MAX_PENDING`` chunks wait for the reader: past that, the stream is not
    watched until it takes one. Only :meth:`read1` of the stream is called, once per readable
    event: a pipe or a socket then returns what is there without blocking."""

    MAX_PENDING = StreamChunks.MAX_PENDING

    def __init__(self, stream: Any, fd: int, loop: asyncio.AbstractEventLoop) -> None:
        self._stream = stream
        self._fd = fd
        self._loop = loop
        self._queue: asyncio.Queue[bytes] = asyncio.Queue()
        self._watching = False
        self._ended = False
        self._watch()

    def _watch(self) -> None:
        if not self._watching and not self._ended:
            self._loop.add_reader(self._fd, self._readable)
            self._watching = True

    def _unwatch(self) -> None:
        if self._watching:
            self._watching = False
            self._loop.remove_reader(self._fd)

    def _readable(self) -> None:
        try:
            chunk = self._stream.read1(READ_CHUNK)
        except (OSError, ValueError):
            chunk = b""
        self._queue.put_nowait(bytes(chunk))
        if not chunk:
            self._ended = True
            self._unwatch()
        elif self._queue.qsize() >= self.MAX_PENDING:
            self._unwatch()

    async def __call__(self) -> bytes:
        chunk = await self._queue.get()
        self._watch()
        return chunk

    def end(self) -> None:
        """Call on the event loop."""
        self._ended = True
        self._unwatch()
        self._queue.put_nowait(b"")

    def hung_up(self) -> bool:
        """The other end of the stream is closed (there may be bytes left to read). Any thread:
        nothing reads the stream while the event loop is stuck, so the lifeline asks this."""
        poller = select.poll()
        poller.register(self._fd, 0)  # only what is always reported: hang-up, error
        return any(events & _GONE for _, events in poller.poll(0))


def stdin_chunks(stream: Any, loop: asyncio.AbstractEventLoop) -> StreamChunks | ReadyChunks:
    """The chunks of the server's stdin: read on the event loop when it is a pipe or a socket
    the loop can watch, else by a thread (a file, a terminal, Windows' pipes)."""
    try:
        fd = stream.fileno()
        mode = os.fstat(fd).st_mode
        if (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)) and hasattr(select, "poll"):
            return ReadyChunks(stream, fd, loop)
    except (AttributeError, NotImplementedError, OSError, ValueError):
        pass
    return StreamChunks(stream, loop)
