"""The server's copy of each open document, kept equal to the editor's.

pygls's ``TextDocument`` splits lines with ``str.splitlines()``, which also breaks at ``\\f``,
``\\v``, ``\\x1c``-``\\x1e``, ``\\x85``, ``\\u2028`` and ``\\u2029``; the LSP breaks only at
``\\r\\n``, ``\\r`` and ``\\n``. After the first incremental edit below such a character, pygls's
copy silently diverges from the editor's (diagnostics land on the wrong line, quick fixes edit
the wrong place). :class:`LspTextDocument` applies incremental changes itself, on LSP lines
(:mod:`evalsubmit.core.lines`), clamping positions past the end of a line or of the document as
the LSP asks. It also never reads a file from disk: a document the editor has not opened has no
text here (pygls would read it, whatever it is: a FIFO, ``/dev/zero``).
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from evalsubmit.core.lines import LineStarts, line_starts, offset_at, split_lines_keepends
from evalsubmit.lsp.convert import from_lsp_character


class LspTextDocument(TextDocument):
    _starts_of: str | None = None
    """The text :attr:`_starts` were found in (by identity): kept from one change to the next,
    so that a change does not look for every line break of the text again."""
    _starts: LineStarts = LineStarts([])

    @property
    def source(self) -> str:
        return self._source or ""

    @property
    def lines(self) -> Sequence[str]:
        return tuple(split_lines_keepends(self.source))

    def known_line_starts(self) -> LineStarts | None:
        """The :func:`line_starts` of :attr:`source` if an edit left them here, else None
        (never computed for this call alone)."""
        known = self._starts_of is not None and self._starts_of is self._source
        return self._starts if known else None

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        text = self.source
        starts = self._starts if self._starts_of is text else line_starts(text)
        encoding = self.position_codec.encoding or "utf-16"
        self._source, self._starts = changed_text(text, starts, change, encoding)
        self._starts_of = self._source


def changed_text(
    text: str,
    starts: Sequence[int],
    change: types.TextDocumentContentChangePartial,
    encoding: str,
) -> tuple[str, LineStarts]:
    """``text`` (whose :func:`line_starts` are ``starts``) with one incremental change applied,
    and the line starts of the result. Only the lines the change touches are cut out of the
    text and looked at for line breaks (this runs on the event loop, per edit); the starts of
    the lines after them move by the change in length (:class:`LineStarts`: without writing
    each one again)."""
    kept = starts if isinstance(starts, LineStarts) else LineStarts(list(starts))

    def offset(position: types.Position) -> int:
        if position.line >= len(kept):
            return len(text)
        begin = kept[position.line]
        end = kept[position.line + 1] if position.line + 1 < len(kept) else len(text)
        line = text[begin:end].rstrip("\r\n")  # without its terminator, as split_lines has it
        column = from_lsp_character(line, position.character, encoding)
        return offset_at(text, kept, position.line, column)

    start, end = offset(change.range.start), offset(change.range.end)
    start, end = min(start, end), max(start, end)
    new = text[:start] + change.text + text[end:]
    delta = len(change.text) - (end - start)
    # From the line before the change's first line to the line after its last one: what is
    # around that window is unchanged, so its edges stay line starts whatever the change
    # does to the breaks inside (``\r`` typed before a ``\n`` joins them into one).
    head = max(bisect.bisect_right(kept, start) - 2, 0)
    tail = bisect.bisect_right(kept, end) + 1
    low = kept[head]
    if tail >= len(kept):
        window = [low + at for at in line_starts(new[low:])]
        return new, kept.replaced(head, len(kept), window, delta)
    high = kept[tail] + delta
    window = line_starts(new[low:high])
    window.pop()  # the window ends with a line break: its last start is ``high``, kept below
    return new, kept.replaced(head, tail, [low + at for at in window], delta)


class LspWorkspace(Workspace):
    """pygls's workspace with :class:`LspTextDocument` documents."""

    def _create_text_document(
        self,
        doc_uri: str,
        source: str | None = None,
        version: int | None = None,
        language_id: str | None = None,
    ) -> TextDocument:
        return LspTextDocument(
            doc_uri,
            source=source,
            version=version,
            language_id=language_id,
            sync_kind=self._sync_kind,
            position_codec=self.position_codec,
        )

    @classmethod
    def like(cls, other: Workspace) -> LspWorkspace:
        """A fresh workspace with the settings of ``other`` (made by pygls at initialize,
        before any document exists)."""
        folders = list(other.folders.values())
        return cls(other._root_uri, other._sync_kind, folders, other.position_encoding)
