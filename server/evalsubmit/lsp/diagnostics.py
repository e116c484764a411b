"""Diagnostics: scheduling analyses off the event loop, push and pull, versions, cross-file.

Rules kept here, in one place:

* every input that can change a document's result (its text, its settings, a module it
  depends on) bumps the document's ``stamp``; a result is stored only if its stamp is newer
  than the stored one, and pushed only if it is still the current one, so an older result
  never overwrites a newer one;
* analyses run in a thread pool; an analysis whose stamp went stale while it was queued is
  skipped; several requests for the same stamp share one analysis;
* edits are debounced per document (``debounceMs``); open and save are checked at once;
* push (``publishDiagnostics`` with the version) unless the client declared pull support, in
  which case it pulls and we ask it to refresh when something other than its edits changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import os
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from lsprotocol import types

from evalsubmit.analysis import ModuleReport, Project, analyze_source
from evalsubmit.analysis.incremental import DocumentAnalyzer
from evalsubmit.lsp import convert
from evalsubmit.lsp.logs import guarded
from evalsubmit.lsp.settings import Settings
from evalsubmit.lsp.state import DocState, Session, Snapshot, uri_to_path

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from evalsubmit.lsp.server import EvalsubmitServer

log = logging.getLogger(__name__)

READY_TIMEOUT_S = 10.0
P = ParamSpec("P")
R = TypeVar("R")
DISABLED = "disabled by the evalsubmit.enable setting"


@functools.lru_cache(maxsize=4096)
def norm(path: Path) -> str:
    """One spelling per file (re-checks compare these on every edit of every open document)."""
    return os.path.normcase(os.path.abspath(path))


class Checker:
    def __init__(self, server: LanguageServer, session: Session, *, workers: int = 2) -> None:
        self._server = server
        self._session = session
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="evalsubmit-analysis")
        self._session_id = uuid.uuid4().hex[:8]
        self._refresh: asyncio.TimerHandle | None = None
        self.ready = asyncio.Event()
        """Set once the initial settings are read: no result is computed with stale ones."""

    @property
    def documents(self) -> dict[str, DocState]:
        return self._session.documents

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- document lifecycle -------------------------------------------------------------------

    def opened(self, uri: str, version: int | None, text: str) -> None:
        state = DocState(uri=uri, path=uri_to_path(uri), version=version)
        self.documents[uri] = state
        self._session.projects.note_file(state.path)
        self._session.projects.set_overlay(state.path, text)
        self._schedule(state, 0.0)
        self._recheck_dependents([state.path], exclude=uri)

    def changed(self, uri: str, version: int | None, text: str) -> None:
        state = self.documents.get(uri)
        if state is None:
            self.opened(uri, version, text)
            return
        state.version = version
        state.stamp += 1
        self._session.projects.set_overlay(state.path, text)
        delay = self._session.settings.for_uri(uri).debounce_ms / 1000
        self._schedule(state, delay)
        self._recheck_dependents([state.path], exclude=uri, delay=delay)

    def saved(self, uri: str) -> None:
        if (state := self.documents.get(uri)) is not None:
            self._schedule(state, 0.0)

    def closed(self, uri: str) -> None:
        state = self.documents.pop(uri, None)
        if state is None:
            return
        if state.debounce is not None:
            state.debounce.cancel()
        self._session.projects.drop_overlay(state.path)
        if not self._session.pull_diagnostics:
            self._publish(uri, None, [])
        self._recheck_dependents([state.path], exclude=uri)

    def files_changed(self, paths: Iterable[Path]) -> None:
        """Files changed on disk (watched files): re-check the open documents using them."""
        self._recheck_dependents(list(paths), exclude=None)

    def recheck_all(self) -> None:
        """Settings changed: every open document gets a fresh result."""
        for state in self.documents.values():
            state.stamp += 1
            self._schedule(state, 0.0)
        self._request_refresh()

    # -- results ------------------------------------------------------------------------------

    async def snapshot(self, uri: str) -> Snapshot | None:
        """An up-to-date snapshot of an open document (analysing now if needed), else None."""
        if not self.ready.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ready.wait(), READY_TIMEOUT_S)
        state = self.documents.get(uri)
        if state is None:
            return None
        while self.documents.get(uri) is state:
            if (current := state.current) is not None:
                return current
            future = state.inflight.get(state.stamp) or self._start(state)
            if future.done():
                # Finished, but its callback (which records the result and drops it from
                # `inflight`) has not run yet: awaiting it would not yield, and this loop would
                # spin forever holding the event loop. Let the callback run first.
                await asyncio.sleep(0)
            else:
                await asyncio.shield(future)
        return None

    def render(self, snap: Snapshot) -> list[types.Diagnostic]:
        overrides = snap.settings.severity
        return [
            convert.diagnostic(
                finding,
                snap.lines,
                version=snap.version,
                severity_overrides=overrides,
                encoding=self._session.encoding,
            )
            for finding in snap.report.findings
        ]

    def result_id(self, snap: Snapshot) -> str:
        return f"{self._session_id}:{snap.stamp}"

    async def pull(self, uri: str, previous: str | None) -> types.DocumentDiagnosticReport:
        snap = await self.snapshot(uri)
        if snap is None:
            return types.RelatedFullDocumentDiagnosticReport(items=[])
        result_id = self.result_id(snap)
        if previous == result_id:
            return types.RelatedUnchangedDocumentDiagnosticReport(result_id=result_id)
        return types.RelatedFullDocumentDiagnosticReport(
            items=self.render(snap), result_id=result_id
        )

    async def pull_workspace(
        self, previous: dict[str, str]
    ) -> list[types.WorkspaceDocumentDiagnosticReport]:
        reports: list[types.WorkspaceDocumentDiagnosticReport] = []
        for uri in list(self.documents):
            snap = await self.snapshot(uri)
            if snap is None:
                continue
            result_id = self.result_id(snap)
            if previous.get(uri) == result_id:
                reports.append(
                    types.WorkspaceUnchangedDocumentDiagnosticReport(
                        uri=uri, version=snap.version, result_id=result_id
                    )
                )
            else:
                reports.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=uri, version=snap.version, items=self.render(snap), result_id=result_id
                    )
                )
        return reports

    def analyzer(self, uri: str, settings: Settings) -> Callable[[str], ModuleReport]:
        """Analyse other text as if it were this document (used to preview fixes)."""
        path = uri_to_path(uri)
        return functools.partial(
            analyze_source,
            path=path,
            project=self._session.projects.for_path(path),
            options=settings.analysis_options(),
        )

    async def in_pool(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run blocking work in the analysis pool (the event loop stays responsive)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    # -- scheduling ---------------------------------------------------------------------------

    def _schedule(self, state: DocState, delay_s: float) -> None:
        if state.debounce is not None:
            state.debounce.cancel()
        state.debounce = asyncio.create_task(self._check_later(state, delay_s))

    async def _check_later(self, state: DocState, delay_s: float) -> None:
        try:
            await asyncio.sleep(delay_s)
            snap = await self.snapshot(state.uri)
            if snap is None or self._session.pull_diagnostics:
                return
            if snap.stamp == state.stamp and snap.stamp > state.published_stamp:
                state.published_stamp = snap.stamp
                self._publish(state.uri, snap.version, self.render(snap))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("checking %s failed", state.uri)

    def _recheck_dependents(
        self, paths: list[Path], *, exclude: str | None, delay: float = 0.0
    ) -> None:
        """Re-check open documents whose result may change because ``paths`` changed: those
        importing them, and those they import (their submits report into those modules)."""
        changed = {norm(p) for p in paths}
        related: set[str] = set()
        for state in self.documents.values():
            if state.latest is not None and norm(state.path) in changed:
                related |= _related(state.latest)
        targets = [
            state
            for state in self.documents.values()
            if state.uri != exclude
            and state.latest is not None
            and (norm(state.path) in related or changed & _related(state.latest))
        ]
        for state in targets:
            log.debug("re-checking %s (a module it is linked with changed)", state.uri)
            state.stamp += 1
            self._schedule(state, delay)
        if targets:
            self._request_refresh(delay)

    def _recheck_paths(self, paths: set[str], *, exclude: str) -> None:
        targets = [s for s in self.documents.values() if s.uri != exclude and norm(s.path) in paths]
        for state in targets:
            state.stamp += 1
            self._schedule(state, 0.0)
        if targets:
            self._request_refresh()

    def _request_refresh(self, delay: float = 0.0) -> None:
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

    def _publish(self, uri: str, version: int | None, items: list[types.Diagnostic]) -> None:
        self._server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=items, version=version)
        )

    # -- analysis -----------------------------------------------------------------------------

    def _start(self, state: DocState) -> asyncio.Future[Snapshot | None]:
        stamp = state.stamp
        text = self._server.workspace.get_text_document(state.uri).source
        settings = self._session.settings.for_uri(state.uri)
        project = self._session.projects.for_path(state.path)
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(
            self._executor, _analyze, state, stamp, state.version, text, settings, project
        )
        state.inflight[stamp] = future

        def done(fut: asyncio.Future[Snapshot | None]) -> None:
            state.inflight.pop(stamp, None)
            if fut.cancelled() or fut.exception() is not None:
                return
            snap, previous = fut.result(), state.latest
            if snap is None or (previous is not None and snap.stamp <= previous.stamp):
                return
            state.latest = snap
            reason = snap.report.skipped
            if reason and (previous is None or previous.report.skipped != reason):
                log.info("skipped %s: %s", state.uri, reason)
            before = _related(previous) if previous is not None else set()
            if new := _related(snap) - before:
                # links that appeared with this result (a new import or submit)
                self._recheck_paths(new, exclude=state.uri)

        future.add_done_callback(done)
        return future


def _related(snap: Snapshot) -> set[str]:
    """Modules linked with this one: those it imports and those its submits report into."""
    report = snap.report
    return {norm(p) for p in report.dependencies} | {norm(p) for p, _ in report.remote_findings}


def _analyze(
    state: DocState,
    stamp: int,
    version: int | None,
    text: str,
    settings: Settings,
    project: Project,
) -> Snapshot | None:
    """Runs in a worker thread. None when the document moved on while this was queued (or
    while an analysis of an older version of it held the document's lock)."""
    if state.stamp != stamp:
        return None
    if not settings.enable:
        report = ModuleReport(path=state.path, skipped=DISABLED)
    else:
        with state.lock:
            if state.stamp != stamp:
                return None
            try:
                report = _incremental(state, project, settings).analyze(text)
            except Exception:
                log.exception("analysis of %s failed", state.uri)
                state.analyzer = None  # its caches may be half-updated
                report = ModuleReport(path=state.path, skipped="internal error (see log)")
    return Snapshot(
        stamp=stamp,
        version=version,
        text=text,
        lines=convert.split_lines(text),
        settings=settings,
        report=report,
    )


def _incremental(state: DocState, project: Project, settings: Settings) -> DocumentAnalyzer:
    """The document's analyzer: it keeps what an edit leaves unchanged between analyses. A new
    one (empty caches) when the project or the options change."""
    options = settings.analysis_options()
    analyzer = state.analyzer
    if analyzer is None or analyzer.project is not project or analyzer.options != options:
        analyzer = state.analyzer = DocumentAnalyzer(state.path, project, options)
    return analyzer


# -- pull handlers ----------------------------------------------------------------------------


@guarded(default=types.RelatedFullDocumentDiagnosticReport(items=[]))
async def text_document_diagnostic(
    ls: EvalsubmitServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    return await ls.checker.pull(params.text_document.uri, params.previous_result_id)


@guarded(default=types.WorkspaceDiagnosticReport(items=[]))
async def workspace_diagnostic(
    ls: EvalsubmitServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    previous = {p.uri: p.value for p in params.previous_result_ids}
    return types.WorkspaceDiagnosticReport(items=await ls.checker.pull_workspace(previous))
