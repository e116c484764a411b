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

from collections.abc import Sequence

from lsprotocol import types
from pygls.workspace import TextDocument, Workspace

from evalsubmit.core.lines import line_starts, offset_at, split_lines_keepends
from evalsubmit.lsp.convert import from_lsp_character


class LspTextDocument(TextDocument):
    @property
    def source(self) -> str:
        return self._source or ""

    @property
    def lines(self) -> Sequence[str]:
        return tuple(split_lines_keepends(self.source))

    def _apply_incremental_change(self, change: types.TextDocumentContentChangePartial) -> None:
        self._source = apply_change(self.source, change, self.position_codec.encoding or "utf-16")


def apply_change(text: str, change: types.TextDocumentContentChangePartial, encoding: str) -> str:
    """``text`` with one incremental change applied (LSP lines, positions clamped). Only the
    lines the change touches are cut out of the text (this runs on the event loop, per edit)."""
    starts = line_starts(text)

    def offset(position: types.Position) -> int:
        if position.line >= len(starts):
            return len(text)
        begin = starts[position.line]
        end = starts[position.line + 1] if position.line + 1 < len(starts) else len(text)
        line = text[begin:end].rstrip("\r\n")  # without its terminator, as split_lines has it
        column = from_lsp_character(line, position.character, encoding)
        return offset_at(text, starts, position.line, column)

    start, end = offset(change.range.start), offset(change.range.end)
    start, end = min(start, end), max(start, end)
    return text[:start] + change.text + text[end:]


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
        workspace = cls(
            other._root_uri,
            other._sync_kind,
            list(other.folders.values()),
            other.position_encoding,
        )
        return workspace
