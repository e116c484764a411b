"""The texts of the project's files on disk, kept while their ``stat`` signature stays the same
(:func:`signature_of`: also what the analysis's index of importers keeps a file's imports by).

An analysis reads the modules its file imports from again on every edit (the answer must be the
text on disk now); reading and decoding a file costs far more than a ``stat`` of it. A text is
kept with the signature its file had when read (device, inode, size, modification and change
times) and given again while a new ``stat`` shows the same signature. The change time
(``st_ctime``) cannot be set back by a user, unlike the modification time.

Two policies, one store:

* **editing** (the language server): a write within the same tick of the file system's clock as
  the read would leave the times as they were, so a text is only trusted once its file's times
  are older than its read by :data:`SETTLED_NS` (git's "racily clean" entries) and such a file
  is read again until then. At most :data:`MAX_KEPT_CHARS` characters are kept, the least
  recently used dropped.
* **one run** (the CLI's ``check``, ``DiskTexts(..., one_run=True)``): a run sees the files as they
  were, so a text is kept by the signature seen before reading it (a file written in between is
  read again by the next reader, whose ``stat`` differs), without the settling rule and without
  a bound. Its relevance scan (:mod:`.relevance`) and the analysis's index of importers
  (:mod:`evalsubmit.analysis.interp.importer_index`) read and import-scan every project file:
  whichever asks first does, for both (:meth:`DiskTexts.read_shared`), and the analysis's own reads
  take the same texts.

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
from evalsubmit.workspace.import_text import Statement, statements_in
from evalsubmit.workspace.walk import is_notebook

SETTLED_NS = 2_000_000_000
"""How much older than its read a file's times must be for its text to be given again without
reading it (coarser than any file system's timestamp granularity, FAT's two seconds included)."""
MAX_KEPT_CHARS = 8_000_000

Signature = tuple[int, int, int, int, int]
"""A regular file's device, inode, size, modification and change times (ns)."""


class DiskText:
    """One file's text as read at ``signature``, and its import statements once a reader
    scanned them."""

    __slots__ = ("signature", "statements", "text")

    def __init__(self, signature: Signature, text: str) -> None:
        self.signature = signature
        self.text = text
        self.statements: tuple[Statement, ...] | None = None

    def import_statements(
        self, kept: dict[tuple[str, int], Statement] | None = None
    ) -> tuple[Statement, ...]:
        """What each ``import`` word of the text names (:func:`~.import_text.statements_in`),
        scanned by the first reader who asks (``kept``: its statements by their text)."""
        statements = self.statements
        if statements is None:
            statements = self.statements = tuple(statements_in(self.text, kept))
        return statements


class DiskTexts:
    """Read files as :func:`~evalsubmit.core.sourcefile.read_source` does (None when unreadable),
    keeping the texts of unchanged files (shared by threads)."""

    def __init__(
        self, max_bytes: int, max_chars: int = MAX_KEPT_CHARS, *, one_run: bool = False
    ) -> None:
        self._max_bytes = max_bytes
        self._max_chars = max_chars
        self.one_run = one_run
        """Kept by the signature before the read, unbounded, without the settling rule."""
        self._lock = threading.Lock()
        self._kept: OrderedDict[str, DiskText] = OrderedDict()
        self._chars = 0

    def read(self, path: Path) -> str | None:
        found = self._entry(path, os.fspath(path), signature_of(path))
        return found.text if isinstance(found, DiskText) else found

    def read_shared(self, path: Path, signature: Signature | None = None) -> DiskText | None:
        """The file's text with its import statements once scanned, read again only when its
        stat (``signature``, else looked at now) is not the one it was read at. None: it cannot
        be read (not kept: reading it again fails the same way), or a notebook (the relevance
        scan reads its code cells, the index its file)."""
        if is_notebook(path):
            return None
        if signature is None:
            signature = signature_of(path)
            if signature is None:
                return None
        found = self._entry(path, os.fspath(path), signature)
        return found if isinstance(found, DiskText) else None

    def _entry(self, path: Path, key: str, signature: Signature | None) -> DiskText | str | None:
        """The kept text of ``path`` (``key``: its name; its stat was ``signature``), else its
        text read now: kept as a :class:`DiskText` when the policy allows, else given as is."""
        if signature is not None:
            with self._lock:
                kept = self._kept.get(key)
                if kept is not None and kept.signature == signature:
                    if not self.one_run:
                        self._kept.move_to_end(key)
                    return kept
        started = time.time_ns()
        text = self._read_text(path, key)
        if text is None:
            return None
        if signature is None:  # not a regular file: read as it is, never kept
            with self._lock:
                self._drop(key)
            return text
        if self.one_run:
            # stat first, then read: a file written in between is kept by its older stat, so
            # the next reader's stat differs and reads it again
            entry = DiskText(signature, text)
            with self._lock:
                self._drop(key)
                self._kept[key] = entry
                self._chars += len(text)
            return entry
        after = signature_of(key)
        # kept only when the file did not change while it was read, and settled before it
        settled = (
            after == signature
            and max(after[3], after[4]) < started - SETTLED_NS
            and len(text) <= self._max_chars
        )
        with self._lock:
            self._drop(key)
            if not settled:
                return text
            entry = self._kept[key] = DiskText(signature, text)
            self._chars += len(text)
            while self._chars > self._max_chars:
                self._drop(next(iter(self._kept)))
        return entry

    def _read_text(self, path: Path, key: str) -> str | None:
        try:
            return read_source(path, max_bytes=self._max_bytes).text
        except UnreadableSource:
            with self._lock:
                self._drop(key)
            return None

    def _drop(self, key: str) -> None:
        gone = self._kept.pop(key, None)
        if gone is not None:
            self._chars -= len(gone.text)


def signature_of(path: Path | str) -> Signature | None:
    """Everything a write changes of a regular file's ``stat`` (None: not one, or no file)."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
