"""One owner per open document: the task that analyses it and hands results to whoever waits.

The design, and why nothing here can spin or wait forever (docs/reliability.md has the long
form):

* A document's :class:`DocumentTrack` is mutated only on the event loop. Its ``stamp`` grows
  with every input that can change the result (text, settings, a module it depends on).
* Exactly one task per document, :meth:`DocumentTrack._run`, starts analyses, and it has at
  most one forward analysis in flight. Each turn of its loop either blocks on an event or
  awaits one analysis in the thread pool; an ``asyncio`` future of ``run_in_executor`` is never
  done when it is created, so every turn yields to the event loop. Nothing else starts analyses.
* A forward result that needs the reverse step (what importers report into the document,
  lsp/jobs.py) is stored and handed on at once; the owner then starts that step in the pool
  without awaiting it (at most one in flight), so a slow importer never holds up the next
  edit's analysis. The step touches no state of the document; its completion only wakes the
  owner, which stores its result if the document has not moved on.
* The owner stores each result itself (no done-callbacks sharing the state) and then resolves
  the futures of the requests waiting for a stamp it has reached.
* A request waits on its own future with a deadline: when no result for the current stamp
  arrives in time it answers from the latest one, and says so in the log.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from pathlib import Path

from evalsubmit.analysis import DocumentAnalyzer
from evalsubmit.core.collection import paused_collection
from evalsubmit.lsp.convert import spelling
from evalsubmit.lsp.snapshot import Analysis

log = logging.getLogger(__name__)

READY_TIMEOUT_S = 10.0
"""The first analysis, and a request, wait at most this long for the session's settings to be
read."""
FAILURE_PAUSE_S = 0.5
"""After an unexpected failure of a turn of the owner's loop: pause before the next turn."""


Job = Callable[[], Analysis]
"""One analysis, with every input captured on the event loop; runs in a worker thread and
never raises (a failure is a snapshot that says so)."""


class DocumentTrack:
    """The analysis state of one open document and the task that owns it."""

    def __init__(
        self,
        uri: str,
        path: Path,
        version: int | None,
        *,
        prepare: Callable[[DocumentTrack], Job],
        prepare_reverse: Callable[[DocumentTrack, Analysis], Job],
        on_result: Callable[[DocumentTrack, Analysis, Analysis | None], None],
        executor: Executor,
        ready: asyncio.Event,
    ) -> None:
        self.uri = uri
        self.path = path
        self.key = spelling(path)
        """The path's one spelling, as re-checks compare it with the modules reports name."""
        self.version = version
        self.stamp = 0
        self.latest: Analysis | None = None
        self.published: Analysis | None = None
        """The result last pushed to the client (push mode)."""
        self.findings: Analysis | None = None
        """The findings of the analysis in flight, out before its summaries (pull mode answers
        from them)."""
        self.refresh_when_fresh = False
        """A pull was answered from an older result: ask the client to pull again later."""
        self.analyzer: DocumentAnalyzer | None = None
        """Incremental caches; only the analysis in flight (one at a time) touches them."""
        self._prepare = prepare
        self._prepare_reverse = prepare_reverse
        self._reverse: asyncio.Future[Analysis] | None = None
        """The reverse step in flight, if any (the owner starts it and stores its result)."""
        self._ready = ready
        self._waited_for_ready = False
        self._on_result = on_result
        self._executor = executor
        self._due = 0.0
        self._urgent = False
        self._wake = asyncio.Event()
        self._waiters: list[tuple[tuple[int, bool, bool], asyncio.Future[Analysis | None]]] = []
        self._task: asyncio.Task[None] | None = None

    # -- inputs (event loop) ------------------------------------------------------------------

    def invalidate(self, delay_s: float) -> None:
        """The result may have changed: analyse again after ``delay_s`` (debounce)."""
        self.stamp += 1
        self.request(delay_s)

    def request(self, delay_s: float) -> None:
        """Analyse the current state after ``delay_s`` (the last request sets the time; a
        request with no delay makes it due at once) unless a result for it exists."""
        self._due = asyncio.get_running_loop().time() + max(0.0, delay_s)
        self._urgent = self._urgent or delay_s <= 0
        self._wake.set()
        self._ensure_running()

    @property
    def current(self) -> Analysis | None:
        """The latest snapshot if it matches the present state of the document."""
        latest = self.latest
        return latest if latest is not None and latest.stamp == self.stamp else None

    async def snapshot(
        self, timeout_s: float, *, complete: bool = False, findings_only: bool = False
    ) -> tuple[Analysis | None, bool]:
        """``(snapshot, fresh)``: the result for the current stamp (with ``complete``, the one
        that includes what importers report; with ``findings_only``, its findings may come
        before its summaries), or, when none arrives within ``timeout_s``, the latest one
        (``fresh``: it is for the current stamp; None before the first result)."""
        wanted = (self.stamp, complete, not findings_only)
        for ready in (self.current, self.findings):  # the result, or its findings out early
            if ready is not None and ready.order >= wanted:
                return ready, True
        waiter: asyncio.Future[Analysis | None] = asyncio.get_running_loop().create_future()
        self._waiters.append((wanted, waiter))
        self._urgent = True
        self._wake.set()
        self._ensure_running()
        try:
            snap = await asyncio.wait_for(waiter, timeout_s)
            return snap, snap is not None and snap.stamp >= wanted[0]
        except TimeoutError:
            latest = self.latest
            if latest is not None and latest.stamp >= wanted[0]:
                return latest, True  # only the importers' part is still being computed
            log.info(
                "%s: no analysis of version %s within %.1f s; answering from %s",
                self.path.name,
                self.version,
                timeout_s,
                f"version {latest.version}" if latest is not None else "nothing (not analysed yet)",
            )
            return latest, False
        finally:
            self._waiters = [(s, f) for s, f in self._waiters if f is not waiter]

    def close(self) -> None:
        """The document was closed: stop the owner; waiters get the latest result."""
        if self._task is not None:
            self._task.cancel()
            self._task = None
        if self._reverse is not None:
            self._reverse.cancel()
            self._reverse = None
        for _, waiter in self._waiters:
            if not waiter.done():
                waiter.set_result(self.latest)
        self._waiters = []

    # -- the owner (event loop) ---------------------------------------------------------------

    def _ensure_running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name=f"evalsubmit-analysis-owner {self.path.name}"
            )

    async def _run(self) -> None:
        while True:
            try:
                await self._turn()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("analysis of %s failed unexpectedly", self.uri)
                await asyncio.sleep(FAILURE_PAUSE_S)

    async def _turn(self) -> None:
        """One turn: block until there is work, or run one analysis (both yield)."""
        loop = asyncio.get_running_loop()
        await self._wake.wait()
        self._wake.clear()
        self._take_reverse()
        if self.current is not None:
            self._release_waiters(self.latest)
            self._start_reverse()
            return
        if not self._urgent and (wait := self._due - loop.time()) > 0:
            # Debounce: an edit, a request or the deadline ends the wait (it really blocks:
            # the event was cleared above and nothing ran since).
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._wake.wait(), wait)
            self._wake.set()
            return
        if not self._ready.is_set() and not self._waited_for_ready:
            # No result computed with settings that are about to change (waited for once).
            self._waited_for_ready = True
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ready.wait(), READY_TIMEOUT_S)
            self._wake.set()
            return
        self._urgent = False
        # The collector's pass over what the analysis allocated comes after the publish, not
        # between the analysis and it (on a large module it is a fifth of a cold analysis).
        with paused_collection():
            snap = await loop.run_in_executor(self._executor, self._prepare(self))
            self._store(snap)
        self._start_reverse()
        if self.current is None:
            self._wake.set()  # edits arrived while it ran: go again (after their debounce)

    def findings_ready(self, snap: Analysis) -> None:
        """The analysis in flight has its findings (``snap``, summaries still pending): the
        requests that need no more get them now."""
        if snap.stamp == self.stamp:
            self.findings = snap
            self._release_waiters(snap)

    def _store(self, snap: Analysis) -> None:
        self.findings = None
        previous = self.latest
        if previous is None or snap.order > previous.order:
            self.latest = snap
            self._release_waiters(snap)
            self._on_result(self, snap, previous)

    def _start_reverse(self) -> None:
        """Complete the current forward result with what importers report (not awaited)."""
        latest = self.latest
        if self._reverse is not None or latest is None or not latest.reverse_pending:
            return
        if latest.stamp != self.stamp:
            return  # the document moved on: its next forward result comes first
        job = self._prepare_reverse(self, latest)
        self._reverse = asyncio.get_running_loop().run_in_executor(self._executor, job)
        self._reverse.add_done_callback(lambda _: self._wake.set())

    def _take_reverse(self) -> None:
        """Store the finished reverse step's result if it completes the latest result."""
        future = self._reverse
        if future is None or not future.done():
            return
        self._reverse = None
        if future.cancelled():
            return
        if (error := future.exception()) is not None:  # a job never raises; just in case
            log.error("analysis of the modules importing %s failed: %r", self.path.name, error)
            return
        snap = future.result()
        if self.latest is not None and snap.stamp == self.latest.stamp:
            self._store(snap)

    def _release_waiters(self, snap: Analysis | None) -> None:
        keep: list[tuple[tuple[int, bool, bool], asyncio.Future[Analysis | None]]] = []
        for wanted, waiter in self._waiters:
            if waiter.done():
                continue
            if snap is not None and snap.order >= wanted:
                waiter.set_result(snap)
            else:
                keep.append((wanted, waiter))
        self._waiters = keep
