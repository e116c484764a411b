"""The texts of a project's Python files on disk and the import statements found in them,
kept by each file's stat, for the readers of one ``evalsubmit check`` run: its relevance scan
(:mod:`.relevance`) and the analysis's index of which files may reach a module
(:mod:`evalsubmit.analysis.interp.module_stores`) read and import-scan every file of the
project. Whichever asks first reads and scans a file; the other takes what it found, as long as
the file's stat signature is the same (:func:`.disk_texts.signature_of`, one ``stat``).

Only the CLI turns this on (:attr:`~.project.Project.shared_reads`): a run sees the files as
they were, and keeping every text is cheap for one run but not for a long editing session.
Notebooks are not shared: the scan reads their code cells, the index their file.
"""

from __future__ import annotations

import os
import threading
from pathlib import Path

from evalsubmit.core.sourcefile import UnreadableSource, read_source
from evalsubmit.workspace.disk_texts import Signature, signature_of
from evalsubmit.workspace.import_text import Statement, statements_in
from evalsubmit.workspace.walk import is_notebook


class SharedRead:
    """One file's text as read at ``signature`` (with at most ``max_bytes``), and its import
    statements once a reader scanned them."""

    __slots__ = ("max_bytes", "signature", "statements", "text")

    def __init__(self, signature: Signature, max_bytes: int, text: str) -> None:
        self.signature = signature
        self.max_bytes = max_bytes
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


class SharedReads:
    """Per project (held by it when the CLI turns sharing on; shared by threads)."""

    def __init__(self) -> None:
        self._files: dict[str, SharedRead] = {}
        self._lock = threading.Lock()

    def read(
        self, path: Path, max_bytes: int, signature: Signature | None = None
    ) -> SharedRead | None:
        """The file's text (decoded as Python does, at most ``max_bytes``), read again only
        when its stat (``signature``, else looked at now) is not the one it was read at. None:
        it cannot be read (not kept: reading it again fails the same way), or a notebook."""
        if is_notebook(path):
            return None
        if signature is None:
            signature = signature_of(path)
            if signature is None:
                return None
        key = os.fspath(path)
        with self._lock:
            kept = self._files.get(key)
        if kept is not None and kept.signature == signature and kept.max_bytes == max_bytes:
            return kept
        try:
            text = read_source(path, max_bytes=max_bytes).text
        except UnreadableSource:
            return None
        # stat first, then read: a file written in between is kept by its older stat, so the
        # next reader's stat differs and reads it again
        kept = SharedRead(signature, max_bytes, text)
        with self._lock:
            self._files[key] = kept
        return kept
