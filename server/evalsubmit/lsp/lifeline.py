"""Keeping the server honest about being alive: a stall watchdog and exit when the editor goes.

A thread (not the event loop, which is what may be stuck) checks every ``CHECK_EVERY_S``:

* the event loop's heartbeat: when it has not beaten for ``STALL_AFTER_S``, the stacks of all
  threads are written (``faulthandler``) to stderr, which editors keep in the server's log, and
  logged once the loop runs again, so a stall is diagnosable from a user's log file;
* the editor: when stdin reached its end (read by a thread, or on the event loop: then the
  hang-up of its other end, seen at two checks in a row, tells the same while the loop is
  stuck and reads nothing), or the ``processId`` given in ``initialize`` no
  longer exists (the LSP specification asks servers to exit then), the server is asked to stop
  and, if it has not exited ``EXIT_GRACE_S`` later (a stuck loop never would), the process ends.
"""

from __future__ import annotations

import asyncio
import contextlib
import faulthandler
import logging
import os
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from io import BufferedReader

from evalsubmit.lsp.logs import to_stderr

log = logging.getLogger(__name__)

CHECK_EVERY_S = 0.25
BEAT_EVERY_S = 0.5
STALL_AFTER_S = 5.0
EXIT_GRACE_S = 1.0


class WatchedStdin:
    """stdin for the server's reader that notes its end (read on the event loop,
    :class:`.transport.ReadyChunks`, or in the transport's reader thread,
    :class:`.transport.StreamChunks`; both only call :meth:`read1`)."""

    def __init__(self, stream: BufferedReader, at_end: threading.Event) -> None:
        self._stream = stream
        self._at_end = at_end

    def read1(self, n: int = -1) -> bytes:
        """At most ``n`` bytes, as soon as any are there. Read from the file descriptor, not
        through the buffered stream: a thread blocked in a buffered read holds its lock, and
        the interpreter aborts when it cannot take that lock at exit."""
        try:
            fd = self._stream.fileno()
        except (AttributeError, OSError, ValueError):
            return self._noted(self._stream.read1(n))
        return self._noted(os.read(fd, n if n > 0 else 65536))

    def fileno(self) -> int:
        return self._stream.fileno()

    def _noted(self, data: bytes) -> bytes:
        if not data:
            self._at_end.set()
        return data


class Lifeline:
    def __init__(self, stop_server: Callable[[], None]) -> None:
        self._stop_server = stop_server
        self.stdin_closed = threading.Event()
        self.parent_pid: int | None = None
        self._beat = time.monotonic()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stalled = False
        self._dump: str | None = None
        self._leaving = False
        self._hung_up: Callable[[], bool] | None = None
        self._hang_ups = 0
        self._thread = threading.Thread(target=self._watch, name="evalsubmit-lifeline", daemon=True)

    def start(self) -> None:
        """Start watching (before the server reads its first message)."""
        if not self._thread.is_alive():
            self._thread.start()

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Call on the event loop once it runs: from then on its heartbeat is watched."""
        if self._loop is loop:
            return
        self._loop = loop
        self._beat = time.monotonic()
        loop.call_soon(self._heartbeat)

    def watch_hang_up(self, hung_up: Callable[[], bool]) -> None:
        """stdin is read on the event loop: ``hung_up`` says (from any thread) whether its
        other end is closed. Seen at two checks in a row, it is its end: the loop, when it
        runs, reads what is left at once and sees the end itself."""
        self._hung_up = hung_up

    def watch_parent(self, pid: int | None) -> None:
        """The editor's process id from ``initialize``. One that is not visible from here at
        the start (another PID namespace, e.g. a container) is not watched."""
        if pid is None or pid <= 0 or pid == os.getpid():
            return
        if not pid_alive(pid):
            log.warning("the editor's process id %d is not visible here; not watching it", pid)
            return
        self.parent_pid = pid

    # -- event loop side ------------------------------------------------------------------------

    def _heartbeat(self) -> None:
        self._beat = time.monotonic()
        if self._dump is not None:
            dump, self._dump = self._dump, None
            log.error("the server stopped answering for a while; thread stacks:\n%s", dump)
        assert self._loop is not None
        self._loop.call_later(BEAT_EVERY_S, self._heartbeat)

    # -- watcher thread -------------------------------------------------------------------------

    def _watch(self) -> None:
        while True:
            time.sleep(CHECK_EVERY_S)
            self.check_once()

    def check_once(self) -> None:
        silent = time.monotonic() - self._beat if self._loop is not None else 0.0
        if silent >= STALL_AFTER_S and not self._stalled:
            self._stalled = True
            self._dump = dump_stacks(f"event loop silent for {silent:.1f} s")
        elif silent < STALL_AFTER_S:
            self._stalled = False
        if self._leaving:
            return
        if self._hung_up is not None:
            self._hang_ups = self._hang_ups + 1 if self._hung_up() else 0
        if self.stdin_closed.is_set() or self._hang_ups >= 2:
            self.leave("the editor closed the connection (stdin ended)")
        elif self.parent_pid is not None and not pid_alive(self.parent_pid):
            self.leave(f"the editor's process {self.parent_pid} is gone")

    def leave(self, why: str) -> None:
        """Stop the server; end the process if it is still here after the grace period."""
        self._leaving = True
        to_stderr(f"evalsubmit: exiting: {why}")
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # closed in between
                loop.call_soon_threadsafe(self._stop_server)
        timer = threading.Timer(EXIT_GRACE_S, _end_process)
        timer.daemon = True
        timer.start()


def _end_process() -> None:
    to_stderr("evalsubmit: the server did not stop in time; ending the process")
    os._exit(0)


def dump_stacks(header: str) -> str:
    """All threads' stacks, written to stderr at once and returned as text."""
    with tempfile.TemporaryFile("w+") as buffer:
        faulthandler.dump_traceback(file=buffer, all_threads=True)
        buffer.seek(0)
        text = buffer.read()
    to_stderr(f"evalsubmit: {header}; thread stacks:\n{text}")
    return text


def pid_alive(pid: int) -> bool:
    if sys.platform == "win32":
        return _windows_pid_alive(pid)
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # PermissionError: it exists, owned by someone else
        return True
    return _not_a_zombie(pid)


def _not_a_zombie(pid: int) -> bool:
    """A killed parent may linger as a zombie until reaped; it is gone all the same."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[-1].split()
    except OSError:
        return True  # no /proc (macOS): kill(0) is all we know
    return not fields or fields[0] != b"Z"


def _windows_pid_alive(pid: int) -> bool:  # pragma: no cover - exercised on Windows only
    import ctypes

    synchronize, wait_timeout = 0x00100000, 0x00000102
    kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
    handle = kernel32.OpenProcess(synchronize, False, pid)
    if not handle:
        return False
    try:
        return bool(kernel32.WaitForSingleObject(handle, 0) == wait_timeout)
    finally:
        kernel32.CloseHandle(handle)
