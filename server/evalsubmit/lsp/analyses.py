"""The analyses of the open documents: scheduling them off the event loop, versions,
cross-file re-checks, and pushing their diagnostics (:mod:`.diagnostics` renders them and
answers the pulls).

Rules kept here, in one place:

* every input that can change a document's result (its text, its settings, a module it
  depends on) bumps the document's ``stamp``; a result is stored only if its stamp is newer
  than the stored one, and pushed only if it is still the current one, so an older result
  never overwrites a newer one;
* analyses run in a thread pool; an analysis whose stamp went stale while it was queued is
  skipped; several requests for the same stamp share one analysis;
* each state is analysed in two steps (lsp/jobs.py): the document's own findings are published
  first, then again with what importers report into it if that changes them. A document whose
  last published findings included such ones waits for the complete result (they would
  otherwise blink off and on at each edit);
* edits are debounced per document (``debounceMs``); open and save are checked at once;
* push (``publishDiagnostics`` with the version) unless the client declared pull support, in
  which case it pulls and we ask it to refresh when something other than its edits changed.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
import uuid
from collections.abc import Callable, Iterable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, ParamSpec, TypeVar

from evalsubmit.analysis import AnalysisOptions, ModuleReport, analyze_source
from evalsubmit.lsp import jobs
from evalsubmit.lsp.convert import spelling, uri_to_path
from evalsubmit.lsp.diagnostics import changed, worth_publishing
from evalsubmit.lsp.project_config import ProjectConfigs
from evalsubmit.lsp.publishing import Publisher
from evalsubmit.lsp.scheduler import READY_TIMEOUT_S, DocumentTrack, Job
from evalsubmit.lsp.sdk_preload import SdkPreload
from evalsubmit.lsp.snapshot import Analysis
from evalsubmit.lsp.state import Session
from evalsubmit.lsp.store_rechecks import StoreRechecks
from evalsubmit.lsp.text_sync import LspTextDocument

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer


log = logging.getLogger(__name__)

REQUEST_WAIT_S = 0.75
"""A request (hover, code action, lens, pull) waits at most this long for a result of the
present text, then answers from the latest result (docs/reliability.md: scheduling)."""
PUBLISH_WAIT_S = 0.05
"""An analysis (in the pool) waits at most this long for its findings to be sent before it
makes its summaries (docs/reliability.md: findings before summaries)."""
P = ParamSpec("P")
R = TypeVar("R")


@functools.lru_cache(maxsize=4096)
def norm(path: Path) -> str:
    """:func:`spelling`, cached for the modules reports depend on (re-checks compare them on
    every edit of every open document). Never for the documents themselves: each one opened
    would stay in the cache after it is closed (a track keeps its own, ``track.key``)."""
    return spelling(path)


class Analyses:
    """The analyses of the open documents: their owners (:class:`DocumentTrack`), what starts
    them, the results requests are answered from, and the diagnostics pushed or pulled."""

    def __init__(self, server: LanguageServer, session: Session, *, workers: int = 2) -> None:
        self._server = server
        self._session = session
        self._executor = ThreadPoolExecutor(workers, thread_name_prefix="evalsubmit-analysis")
        self.session_id = uuid.uuid4().hex[:8]
        """Part of every result id (a pull from an earlier server never matches)."""
        self.publisher = Publisher(server, session)
        self.configs = ProjectConfigs(server)
        self._sdk_preload = SdkPreload(self._executor)
        self.ready = asyncio.Event()
        """Set once the initial settings are read: no result is computed with stale ones."""
        self._store_rechecks = StoreRechecks(
            session.documents,
            lambda path: session.projects.for_path(path),
            self._executor,
            self._stores_changed,
        )

    @property
    def documents(self) -> dict[str, DocumentTrack]:
        return self._session.documents

    def shutdown(self) -> None:
        self._store_rechecks.cancel()
        for track in self.documents.values():
            track.close()
        self._executor.shutdown(wait=False, cancel_futures=True)

    # -- document lifecycle -------------------------------------------------------------------

    def opened(self, uri: str, version: int | None, text: str) -> None:
        if (old := self.documents.get(uri)) is not None:
            old.close()
        track = DocumentTrack(
            uri,
            uri_to_path(uri),
            version,
            prepare=self._prepare,
            prepare_reverse=self._prepare_reverse,
            on_result=self._on_result,
            executor=self._executor,
            ready=self.ready,
        )
        self.documents[uri] = track
        project = self._session.projects.for_path(track.path)
        project.note_file(track.path)  # it may be new (just created)
        project.set_overlay(track.path, text)
        track.invalidate(0.0)
        self._recheck_dependents([track.path], exclude=uri)

    def changed(self, uri: str, version: int | None, text: str) -> None:
        track = self.documents.get(uri)
        if track is None:
            self.opened(uri, version, text)
            return
        track.version = version
        self._session.projects.for_path(track.path).set_overlay(track.path, text)
        delay = self._session.settings.for_uri(uri).debounce_ms / 1000
        track.invalidate(delay)
        self._recheck_dependents([track.path], exclude=uri, delay=delay)

    def saved(self, uri: str) -> None:
        if (track := self.documents.get(uri)) is not None:
            track.request(0.0)

    def closed(self, uri: str) -> None:
        track = self.documents.pop(uri, None)
        self.publisher.forget(uri)
        if track is None:
            return
        track.close()
        self._session.projects.for_path(track.path).drop_overlay(track.path)
        if self.publisher.pushes(uri):
            self.publisher.clear(uri)
        self._recheck_dependents([track.path], exclude=uri)

    def files_changed(self, paths: Iterable[Path]) -> None:
        """Files changed on disk (watched files): re-check the open documents using them."""
        self._recheck_dependents(list(paths), exclude=None)

    def recheck_all(self) -> None:
        """Settings changed: every open document gets a fresh result."""
        for track in self.documents.values():
            track.invalidate(0.0)
        self.publisher.request_refresh()

    # -- results ------------------------------------------------------------------------------

    async def analysis(self, uri: str, wait_s: float = REQUEST_WAIT_S) -> Analysis | None:
        """The result for the document's present state; when none arrives within ``wait_s``,
        the latest one (or None: not open, or not analysed yet)."""
        snap, _ = await self.analysis_and_freshness(uri, wait_s=wait_s)
        return snap

    def latest(self, uri: str) -> Analysis | None:
        """The document's latest result, whatever text it is of (None: none yet)."""
        track = self.documents.get(uri)
        return track.latest if track is not None else None

    async def wait_ready(self) -> None:
        """Until the initial settings are read (bounded): nothing uses the defaults by mistake."""
        if not self.ready.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.ready.wait(), READY_TIMEOUT_S)

    async def analysis_and_freshness(
        self,
        uri: str,
        *,
        wait_s: float = REQUEST_WAIT_S,
        complete: bool = False,
        findings_only: bool = False,
    ) -> tuple[Analysis | None, bool]:
        await self.wait_ready()
        track = self.documents.get(uri)
        if track is None:
            return None, False
        return await track.snapshot(wait_s, complete=complete, findings_only=findings_only)

    def analyzer(self, uri: str, options: AnalysisOptions) -> Callable[[str], ModuleReport]:
        """Analyse other text as if it were this document (used to preview fixes)."""
        path = uri_to_path(uri)
        return functools.partial(
            analyze_source,
            path=path,
            project=self._session.projects.for_path(path),
            options=options,
        )

    async def in_pool(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        """Run blocking work in the analysis pool (the event loop stays responsive)."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, functools.partial(fn, *args, **kwargs))

    # -- results arriving (the owner of a document calls this on the event loop) ---------------

    def _on_result(self, track: DocumentTrack, snap: Analysis, previous: Analysis | None) -> None:
        # (scheduled to run after this result is handed on)
        self._sdk_preload.after_result(snap.report, first_of_document=previous is None)
        reason = snap.report.skipped
        if reason and (previous is None or previous.report.skipped != reason):
            log.info("skipped %s: %s", track.uri, reason)
        self.configs.show(snap.effective)
        failures = snap.report.internal_errors
        if failures and (previous is None or previous.report.internal_errors != failures):
            log.error("internal error in %s (the rest was analysed): %s", track.uri, failures)
        before = _related(previous) if previous is not None else set()
        if new := _related(snap) - before:
            # links that appeared with this result (a new import or submit)
            self._recheck_paths(new, exclude=track.uri)
        if snap.stamp != track.stamp:
            return  # the document moved on: a newer result follows
        if not self.publisher.pushes(track.uri):
            completed = previous is not None and previous.stamp == snap.stamp
            if track.refresh_when_fresh or (completed and changed(previous, snap)):
                track.refresh_when_fresh = False
                self.publisher.request_refresh()
        elif worth_publishing(track.published, snap):
            track.published = snap
            self.publisher.push(track.uri, snap)

    def _prepare(self, track: DocumentTrack) -> Job:
        """The next analysis of ``track``, its inputs read now, on the event loop. The text
        and its version are read together (pygls applies an edit before our handler runs)."""
        document = self._server.workspace.get_text_document(track.uri)
        starts = document.known_line_starts() if isinstance(document, LspTextDocument) else None
        settings = self._session.settings.for_uri(track.uri)
        project = self._session.projects.for_path(track.path)
        self._session.projects.use_python(project, settings.python)
        loop = asyncio.get_running_loop()

        def findings_ready(snap: Analysis) -> None:  # (in the worker thread)
            sent = threading.Event()
            loop.call_soon_threadsafe(self._on_findings, track, snap, sent)
            # The analysis goes on with the summaries; holding the GIL it would keep the event
            # loop from sending the findings for up to a switch interval (5 ms): it waits.
            sent.wait(PUBLISH_WAIT_S)

        return functools.partial(
            jobs.forward,
            track,
            track.stamp,
            document.version,
            document.source,
            starts,
            settings,
            self.configs,
            project,
            findings_ready,
        )

    def _on_findings(self, track: DocumentTrack, snap: Analysis, sent: threading.Event) -> None:
        """An analysis still making its summaries has its findings: publish them (push), or
        answer the pulls waiting for them; the result itself follows (``_on_result``)."""
        try:
            if snap.stamp != track.stamp:
                return
            if not self.publisher.pushes(track.uri):
                track.findings_ready(snap)
            elif worth_publishing(track.published, snap):
                track.published = snap
                self.publisher.push(track.uri, snap)
        finally:
            sent.set()

    def _prepare_reverse(self, track: DocumentTrack, snap: Analysis) -> Job:
        """The reverse step completing ``snap`` (lsp/jobs.py), on the event loop."""
        project = self._session.projects.for_path(track.path)
        return functools.partial(jobs.reverse, snap, track.path, project)

    # -- re-checks across modules ---------------------------------------------------------------

    def _recheck_dependents(
        self, paths: list[Path], *, exclude: str | None, delay: float = 0.0
    ) -> None:
        """Re-check open documents whose result may change because ``paths`` changed: those
        importing them, those they import (their submits report into those modules), and those
        whose analysis is still under way (it may have read ``paths`` as they were, and what it
        depends on is not known until it ends)."""
        changed = {spelling(p) for p in paths}
        related: set[str] = set()
        for track in self.documents.values():
            if track.latest is not None and track.key in changed:
                related |= _related(track.latest)
        targets = [
            track
            for track in self.documents.values()
            if track.uri != exclude
            and (
                track.latest is None
                or track.latest.stamp != track.stamp
                or track.key in related
                or changed & _related(track.latest)
            )
        ]
        for track in targets:
            log.debug("re-checking %s (a module it is linked with changed)", track.uri)
            track.invalidate(delay)
        if targets:
            self.publisher.request_refresh(delay)
        # a store of a module attribute a document reads, typed or removed in a file that is
        # none of its dependencies (lsp/store_rechecks.py)
        self._store_rechecks.schedule(delay)

    def _stores_changed(self, tracks: list[DocumentTrack]) -> None:
        for track in tracks:
            log.debug("re-checking %s (a module attribute it reads is stored elsewhere)", track.uri)
            track.invalidate(0.0)
        self.publisher.request_refresh()

    def _recheck_paths(self, paths: set[str], *, exclude: str) -> None:
        targets = [t for t in self.documents.values() if t.uri != exclude and t.key in paths]
        for track in targets:
            track.invalidate(0.0)
        if targets:
            self.publisher.request_refresh()


def _related(snap: Analysis) -> set[str]:
    """Modules linked with this one: those it imports and those its submits report into."""
    report = snap.report
    return {norm(p) for p in report.dependencies} | {norm(p) for p, _ in report.remote_findings}
