"""The texts of the project's files on disk, kept while their ``stat`` signature stays the same
(:func:`signature_of`: also what the CLI's :mod:`.shared_reads` and the analysis's index of
importers keep a file's text and imports by).

An analysis reads the modules its file imports from again on every edit (the answer must be the
text on disk now); reading and decoding a file costs far more than a ``stat`` of it. A text is
kept with the signature its file had when read (device, inode, size, modification and change
times) and given again while a new ``stat`` shows the same signature.

A write within the same tick of the file system's clock as the read would leave the times as
they were: a text is only trusted once its file's times are older than its read by
:data:`SETTLED_NS` (git's "racily clean" entries), so such a file is read again until then.
The change time (``st_ctime``) cannot be set back by a user, unlike the modification time.

Bounded: at most :data:`MAX_KEPT_CHARS` characters are kept, the least recently used dropped.
Only regular files are kept; everything else (a missing file, a FIFO) is read as before.
"""

from __future__ import annotations

import os
import stat
import threading
import time
from collections import OrderedDict
from pathlib import Path

from evalsubmit.core.sourcefile import UnreadableSource, read_source

SETTLED_NS = 2_000_000_000
"""How much older than its read a file's times must be for its text to be given again without
reading it (coarser than any file system's timestamp granularity, FAT's two seconds included)."""
MAX_KEPT_CHARS = 8_000_000

Signature = tuple[int, int, int, int, int]
"""A regular file's device, inode, size, modification and change times (ns)."""


class DiskTexts:
    """Read files as :func:`~evalsubmit.core.sourcefile.read_source` does (None when unreadable),
    keeping the texts of unchanged files."""

    def __init__(self, max_bytes: int, max_chars: int = MAX_KEPT_CHARS) -> None:
        self._max_bytes = max_bytes
        self._max_chars = max_chars
        self._lock = threading.Lock()
        self._kept: OrderedDict[Path, tuple[Signature, str]] = OrderedDict()
        self._chars = 0

    def read(self, path: Path) -> str | None:
        signature = signature_of(path)
        if signature is not None:
            with self._lock:
                kept = self._kept.get(path)
                if kept is not None and kept[0] == signature:
                    self._kept.move_to_end(path)
                    return kept[1]
        started = time.time_ns()
        try:
            text = read_source(path, max_bytes=self._max_bytes).text
        except UnreadableSource:
            text = None
        after = signature_of(path)
        # kept only when the file did not change while it was read, and settled before it
        settled = (
            text is not None
            and after is not None
            and after == signature
            and max(after[3], after[4]) < started - SETTLED_NS
        )
        with self._lock:
            self._drop(path)
            if settled and text is not None and after is not None and len(text) <= self._max_chars:
                self._kept[path] = (after, text)
                self._chars += len(text)
                while self._chars > self._max_chars:
                    self._drop(next(iter(self._kept)))
        return text

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()
            self._chars = 0

    def _drop(self, path: Path) -> None:
        gone = self._kept.pop(path, None)
        if gone is not None:
            self._chars -= len(gone[1])


def signature_of(path: Path) -> Signature | None:
    """Everything a write changes of a regular file's ``stat`` (None: not one, or no file)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
