"""Replacing a file's bytes without losing an edit made since they were read.

The new bytes go to a temporary file in the same folder, which is written and synced (the slow
part: milliseconds on a real disk) *before* the file is looked at a last time: its identity
(device, inode), size, modification time and bytes must all still be those read, or the file is
left as it is. Only then is the temporary file renamed over it.

A rename is not a compare-and-swap on POSIX: an edit can still land in the microseconds between
that last look and the rename. The replaced file is kept open across the rename to catch it: if
it changed meanwhile, its bytes (with the edit) are put back, unfixed. What remains: an editor's
atomic save in those microseconds (another file renamed into place, then replaced), and a
program that opened the file before the rename and writes to it after the look that follows it
(its bytes go to the replaced file, which no name leads to any more).
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Callable
from pathlib import Path

from evalsubmit.core.records import record
from evalsubmit.core.sourcefile import UnreadableSource, read_regular_file

EDITED_MEANWHILE = "it was changed while it was being fixed: not overwritten"
EDITED_DURING_RENAME = "it was changed while it was being replaced: its changed bytes were put back"
LOST_DURING_RENAME = (
    "it was changed while it was being replaced, and again after: the first change may be lost"
)


@record
class Snapshot:
    """A file's bytes and what identifies that version of it."""

    data: bytes
    identity: tuple[int, int, int, int]
    """(st_dev, st_ino, st_size, st_mtime_ns)"""
    mode: int


class ChangedWhileRead(Exception):
    """The file changed between the looks before and after its bytes were read."""


def read_snapshot(path: Path, *, max_bytes: int) -> Snapshot:
    """``path``'s bytes, bracketed by two looks at it that must agree (else
    :class:`ChangedWhileRead`); :class:`UnreadableSource` when it cannot be read."""
    before = _look(path)
    data = read_regular_file(path, max_bytes=max_bytes)
    after = _look(path)
    if before[0] != after[0]:
        raise ChangedWhileRead(path)
    return Snapshot(data, after[0], after[1])


def replace_if_unchanged(
    path: Path,
    data: bytes,
    read: Snapshot,
    *,
    max_bytes: int,
    before_final_check: Callable[[Path], None] | None = None,
) -> str | None:
    """Replace ``path`` (a real path, no link) by ``data`` if it is still ``read``; None, or
    why not. ``before_final_check`` (a test's seam) runs once the temporary file is synced."""
    import tempfile  # only when a file is written: a check never imports it

    try:
        handle, temporary = tempfile.mkstemp(
            dir=path.parent, prefix=f".{path.name}.", suffix=".evalsubmit"
        )
    except OSError as error:
        return f"cannot write next to it ({error.strerror or error})"
    try:
        with os.fdopen(handle, "wb") as stream:
            os.fchmod(stream.fileno(), read.mode)
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if before_final_check is not None:
            before_final_check(path)
        replaced = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return f"cannot write it ({error.strerror or error})"
    try:
        return _rename_if_unchanged(temporary, path, data, read, replaced, max_bytes)
    finally:
        os.close(replaced)


def _rename_if_unchanged(
    temporary: str, path: Path, data: bytes, read: Snapshot, replaced: int, max_bytes: int
) -> str | None:
    """The last look, the rename, and the look at the replaced file (open as ``replaced``)."""
    try:
        if not _still(path, read, max_bytes):
            os.unlink(temporary)
            return EDITED_MEANWHILE
        os.replace(temporary, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return f"cannot write it ({error.strerror or error})"
    if _identity(os.fstat(replaced)) == read.identity:
        return None
    # Changed between the last look and the rename: put its bytes back unless the new file
    # was changed too (then neither is overwritten again).
    try:
        kept = _read_open(replaced, max_bytes)
        written = read_snapshot(path, max_bytes=max_bytes)
    except (OSError, ChangedWhileRead, UnreadableSource):
        return LOST_DURING_RENAME
    if written.data != data:
        return LOST_DURING_RENAME
    undone = replace_if_unchanged(path, kept, written, max_bytes=max_bytes)
    return EDITED_DURING_RENAME if undone is None else LOST_DURING_RENAME


def _read_open(fd: int, max_bytes: int) -> bytes:
    chunks: list[bytes] = []
    offset = size = 0
    while size <= max_bytes:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)
        size += len(chunk)
    raise UnreadableSource(Path(f"/proc/self/fd/{fd}"), f"file is larger than {max_bytes} bytes")


def _still(path: Path, read: Snapshot, max_bytes: int) -> bool:
    """Whether ``path`` is the very version read (the last look, right before the rename)."""
    try:
        now = read_snapshot(path, max_bytes=max_bytes)
    except (ChangedWhileRead, UnreadableSource):
        return False
    return now.identity == read.identity and now.data == read.data


def _look(path: Path) -> tuple[tuple[int, int, int, int], int]:
    try:
        info = os.stat(path)
    except OSError as error:
        raise UnreadableSource(path, f"cannot look at it ({error.strerror or error})") from None
    return _identity(info), stat.S_IMODE(info.st_mode)


def _identity(info: os.stat_result) -> tuple[int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns)
