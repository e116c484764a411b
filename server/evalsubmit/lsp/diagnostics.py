"""Diagnostics: an analysis rendered for the client, when it is worth pushing, and the answers
to the client's pulls (``textDocument/diagnostic``, ``workspace/diagnostic``).

:class:`.analyses.Analyses` pushes (``publishDiagnostics`` with the version) unless the client
declared pull support; then the client pulls, through :func:`pull_handlers`, and is asked to refresh
when something other than its edits changed. A result id names the session, the stamp and
whether findings of importers are shown: the client asks again with it, and a pull answers
"unchanged" while it still holds.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

from lsprotocol import types

from evalsubmit.lsp import convert
from evalsubmit.lsp.logs import guarded

if TYPE_CHECKING:
    from evalsubmit.lsp.analyses import Analyses
    from evalsubmit.lsp.convert import Encoding
    from evalsubmit.lsp.snapshot import Analysis
    from evalsubmit.lsp.state import Session


def render(snap: Analysis, encoding: Encoding) -> list[types.Diagnostic]:
    overrides = snap.settings.severity
    return [
        convert.diagnostic(
            finding,
            snap.lines,
            version=snap.version,
            severity_overrides=overrides,
            encoding=encoding,
        )
        for finding in snap.report.findings
    ]


def result_id(session_id: str, snap: Analysis) -> str:
    """Changes with the findings: a completion that adds none keeps its forward one's."""
    return f"{session_id}:{snap.stamp}{'r' if snap.remote_shown else ''}"


def changed(before: Analysis | None, after: Analysis) -> bool:
    return before is None or before.report.findings != after.report.findings


def worth_publishing(published: Analysis | None, snap: Analysis) -> bool:
    """Push ``snap`` (the current result)? Never one older than the last pushed; a forward
    result not while the last pushed one showed findings from importers (they would vanish
    until its completion); a completion only if it changes the findings."""
    if published is None:
        return True
    if snap.order <= published.order:
        return False
    if snap.reverse_pending and published.remote_shown:
        return False
    return snap.stamp != published.stamp or changed(published, snap)


DocumentPull = Callable[[types.DocumentDiagnosticParams], Awaitable[types.DocumentDiagnosticReport]]
WorkspacePull = Callable[
    [types.WorkspaceDiagnosticParams], Awaitable[types.WorkspaceDiagnosticReport]
]


def pull_handlers(analyses: Analyses, session: Session) -> tuple[DocumentPull, WorkspacePull]:
    """The pull handlers (functions, not bound methods: pygls marks what it registers with
    attributes). A notebook's diagnostics are pushed, per cell, in every mode
    (vscode-languageclient 9 never pulls a cell's): a pull for a cell is answered with none."""

    @guarded(default=types.RelatedFullDocumentDiagnosticReport(items=[]))
    async def text_document_diagnostic(
        params: types.DocumentDiagnosticParams,
    ) -> types.DocumentDiagnosticReport:
        uri, previous = params.text_document.uri, params.previous_result_id
        if session.notebooks.of_cell(uri) is not None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        # The client shows findings from importers (the result id says so): answer with the
        # complete result (bounded wait), not one without them that a refresh would undo.
        shows_remote = previous is not None and previous.endswith("r")
        snap, fresh = await analyses.analysis_and_freshness(
            uri, complete=shows_remote, findings_only=True
        )
        if not fresh and (track := analyses.documents.get(uri)) is not None:
            track.refresh_when_fresh = True
        if snap is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        found = result_id(analyses.session_id, snap)
        if previous == found:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=found)
        items = render(snap, session.encoding)
        return types.RelatedFullDocumentDiagnosticReport(items=items, result_id=found)

    @guarded(default=types.WorkspaceDiagnosticReport(items=[]))
    async def workspace_diagnostic(
        params: types.WorkspaceDiagnosticParams,
    ) -> types.WorkspaceDiagnosticReport:
        previous = {p.uri: p.value for p in params.previous_result_ids}
        uris = list(analyses.documents)
        snaps = await asyncio.gather(*(analyses.analysis(uri) for uri in uris))
        reports: list[types.WorkspaceDocumentDiagnosticReport] = []
        for uri, snap in zip(uris, snaps, strict=True):
            if snap is None or uri in session.notebooks.notebooks:
                continue  # a notebook's diagnostics are its cells', pushed per cell
            found = result_id(analyses.session_id, snap)
            if previous.get(uri) == found:
                reports.append(
                    types.WorkspaceUnchangedDocumentDiagnosticReport(
                        uri=uri, version=snap.version, result_id=found
                    )
                )
            else:
                items = render(snap, session.encoding)
                reports.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=uri, version=snap.version, items=items, result_id=found
                    )
                )
        return types.WorkspaceDiagnosticReport(items=reports)

    return text_document_diagnostic, workspace_diagnostic
