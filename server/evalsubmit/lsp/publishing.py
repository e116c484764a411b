"""Sending the open documents' diagnostics to the client: pushed (``publishDiagnostics``, as
the JSON text :mod:`.wire` keeps per document, a notebook's split among its cells), or, for a
client that pulls, asking it to pull again (``workspace/diagnostic/refresh``) when results
changed without its edits. :mod:`.analyses` decides when; this decides how."""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from evalsubmit.lsp import wire
from evalsubmit.lsp.diagnostics import render
from evalsubmit.lsp.notebooks import split_diagnostics, syntax_severity
from evalsubmit.lsp.protocol import EvalsubmitProtocol
from evalsubmit.lsp.snapshot import Analysis
from evalsubmit.lsp.state import Session
from evalsubmit.lsp.wire import WireForms

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer


log = logging.getLogger(__name__)


class Publisher:
    """How the diagnostics of each open document reach the client."""

    def __init__(self, server: LanguageServer, session: Session) -> None:
        self._server = server
        self._session = session
        self._refresh: asyncio.TimerHandle | None = None
        self._wire: dict[str, WireForms] = {}
        """The diagnostics last pushed for each open document, as JSON text (:mod:`.wire`)."""

    def pushes(self, uri: str) -> bool:
        """Push the document's diagnostics? In push mode, and always for a notebook: clients
        pull only for the documents of text tabs (vscode-languageclient 9 never pulls a cell's)."""
        return not self._session.pull_diagnostics or uri in self._session.notebooks.notebooks

    def push(self, uri: str, snap: Analysis) -> None:
        """Push ``snap``'s diagnostics: written as the JSON text that is sent, each diagnostic's
        kept for the next push while it is unchanged (:mod:`.wire`), but for a notebook, whose
        diagnostics are split among its cells."""
        if self._session.notebooks.get(uri) is not None:
            self._publish(uri, snap.version, render(snap, self._session.encoding))
            return
        forms = self._wire.get(uri)
        if forms is None:
            forms = self._wire[uri] = WireForms()
        texts = forms.diagnostics(
            snap.report.findings,
            snap.lines,
            version=snap.version,
            severity_overrides=snap.settings.severity,
            encoding=self._session.encoding,
        )
        self._publish_text(uri, snap.version, texts)

    def clear(self, uri: str) -> None:
        """The document (a closed one, a deleted notebook cell) has no diagnostics any more."""
        self._publish(uri, None, [])

    def forget(self, uri: str) -> None:
        """The document was closed: its kept JSON texts go."""
        self._wire.pop(uri, None)

    def request_refresh(self, delay: float = 0.0) -> None:
        """Pull mode: ask the client to pull again (results changed without its edits)."""
        if not (self._session.pull_diagnostics and self._session.refresh_support):
            return
        if self._refresh is not None:
            self._refresh.cancel()
        loop = asyncio.get_running_loop()
        self._refresh = loop.call_later(delay, self._send_refresh)

    def _send_refresh(self) -> None:
        self._refresh = None
        try:
            self._server.workspace_diagnostic_refresh(None)
        except Exception:
            log.exception("workspace/diagnostic/refresh failed")

    def _publish_text(self, uri: str, version: int | None, texts: list[str]) -> None:
        protocol = self._server.protocol
        assert isinstance(protocol, EvalsubmitProtocol)
        protocol.send_text(wire.notification(uri, version, texts))

    def _publish(self, uri: str, version: int | None, items: list[types.Diagnostic]) -> None:
        if (notebook := self._session.notebooks.get(uri)) is not None:
            layout = notebook.layout(version)
            if layout is not None:  # each cell gets its own, in its own coordinates
                track = self._session.documents.get(uri)
                syntax = syntax_severity(track.published if track is not None else None)
                for cell, found in split_diagnostics(layout, items, self._session.encoding, syntax):
                    self._publish(cell, None, found)
            return
        self._server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=version)
        )
