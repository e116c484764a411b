"""stdin read on the event loop (lsp/transport.py ``ReadyChunks``): what the thread that reads
it otherwise (``StreamChunks``) guarantees, without the hop between threads."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from evalsubmit.lsp import transport
from evalsubmit.lsp.lifeline import Lifeline


class FdStream:
    def __init__(self, fd: int) -> None:
        self._fd = fd

    def fileno(self) -> int:
        return self._fd

    def read1(self, n: int = -1) -> bytes:
        return os.read(self._fd, n)


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read_end, write_end = os.pipe()
    yield read_end, write_end
    for fd in (read_end, write_end):
        with contextlib.suppress(OSError):
            os.close(fd)


async def test_chunks_then_the_end(pipe: tuple[int, int]) -> None:
    read_end, write_end = pipe
    chunks = transport.stdin_chunks(FdStream(read_end), asyncio.get_running_loop())
    assert isinstance(chunks, transport.ReadyChunks)
    os.write(write_end, b"Content-Length: 2\r\n\r\n{}")
    assert await asyncio.wait_for(chunks(), 5) == b"Content-Length: 2\r\n\r\n{}"
    assert not chunks.hung_up()
    os.close(write_end)
    assert chunks.hung_up()  # seen from any thread, read or not
    assert await asyncio.wait_for(chunks(), 5) == b""


async def test_a_reader_that_does_not_take_them_stops_the_reading(
    pipe: tuple[int, int], monkeypatch: pytest.MonkeyPatch
) -> None:
    read_end, write_end = pipe
    monkeypatch.setattr(transport.ReadyChunks, "MAX_PENDING", 2)
    chunks = transport.ReadyChunks(FdStream(read_end), read_end, asyncio.get_running_loop())
    for piece in (b"a", b"b", b"c"):
        os.write(write_end, piece)
        await asyncio.sleep(0.05)  # each one read on its own
    assert chunks._queue.qsize() == 2 and not chunks._watching  # "c" left in the pipe
    assert await chunks() == b"a"
    assert await chunks() == b"b"
    assert await asyncio.wait_for(chunks(), 5) == b"c"
    chunks.end()


async def test_end_is_seen_by_the_reader(pipe: tuple[int, int]) -> None:
    chunks = transport.ReadyChunks(FdStream(pipe[0]), pipe[0], asyncio.get_running_loop())
    chunks.end()
    assert await asyncio.wait_for(chunks(), 5) == b""
    assert not chunks._watching


async def test_a_file_is_read_by_a_thread(tmp_path: Path) -> None:
    path = tmp_path / "messages"
    path.write_bytes(b"x")
    with path.open("rb") as stream:
        chunks = transport.stdin_chunks(stream, asyncio.get_running_loop())
        assert isinstance(chunks, transport.StreamChunks)
        assert await asyncio.wait_for(chunks(), 5) == b"x"


def test_the_lifeline_takes_a_hang_up_seen_twice_in_a_row_for_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The event loop may be stuck (nothing reads stdin): the hang-up of its other end ends the
    server; seen once, the loop may just not have read the rest yet."""
    line = Lifeline(stop_server=lambda: None)
    left: list[str] = []
    monkeypatch.setattr(line, "leave", left.append)
    seen = iter([True, False, True, True])
    line.watch_hang_up(lambda: next(seen))
    for _ in range(3):
        line.check_once()
    assert left == []
    line.check_once()
    assert left == ["the editor closed the connection (stdin ended)"]
