"""Re-checks of the open documents whose result rests on which project files may store a
module attribute they read (``settings.CONCURRENCY``: see
:mod:`evalsubmit.analysis.interp.module_stores`), or on which members subclasses in other
files define (:mod:`evalsubmit.analysis.interp.subclass_text`; both asked again through
:mod:`evalsubmit.analysis.interp.questions`).

A file that stored nothing is no dependency of such a document, yet a store typed into it, or
written to it on disk, makes the value unknown (and a store removed makes it known again):
the document's result changes though nothing it read did. So whenever another file changes
(a buffer edited, opened or closed, files on disk), the questions each such document's last
analysis asked of the module stores are asked again, in the analysis pool once the edit's
debounce has passed; the documents whose answers changed are analysed again (the engine then
drops their cached results: ``engine.caches``). Asking again is cheap: what every file
imports and may store is kept by its stat or text, so only the file that changed is scanned.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Executor
from pathlib import Path

from evalsubmit.analysis import Project
from evalsubmit.analysis.interp.modules import ModuleResolver
from evalsubmit.analysis.report import Answer, Question
from evalsubmit.lsp.scheduler import DocumentTrack

log = logging.getLogger(__name__)

Asked = tuple[DocumentTrack, Project, dict[Question, Answer]]


class StoreRechecks:
    """One pending look at the open documents' module stores' answers at a time (a burst of
    edits makes one, after the last one's debounce)."""

    def __init__(
        self,
        documents: Mapping[str, DocumentTrack],
        project_of: Callable[[Path], Project],
        executor: Executor,
        invalidated: Callable[[list[DocumentTrack]], None],
    ) -> None:
        self._documents = documents
        self._project_of = project_of
        self._executor = executor
        self._invalidated = invalidated
        """Analyse these documents again (on the event loop)."""
        self._pending: asyncio.TimerHandle | None = None

    def schedule(self, delay: float) -> None:
        """Another file changed: look at the answers after ``delay`` (the edit's debounce).
        Not when no document's current result asked any: one that is due to be analysed again
        (the document just edited, those re-checked with it) asks them anew, of the changed
        files (and no timer, even of 0 s, comes between an edit and its analysis)."""
        if not any(_current_and_asked(track) for track in self._documents.values()):
            return
        if self._pending is not None:
            self._pending.cancel()
        self._pending = asyncio.get_running_loop().call_later(delay, self._look)

    def cancel(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def _look(self) -> None:
        self._pending = None
        asked: list[Asked] = []
        for track in self._documents.values():
            latest = track.latest
            # a document whose analysis is due asks again anyway
            if latest is not None and _current_and_asked(track):
                answers = dict(latest.report.store_answers)
                asked.append((track, self._project_of(track.path), answers))
        if not asked:
            return
        future = asyncio.get_running_loop().run_in_executor(self._executor, _changed, asked)
        future.add_done_callback(self._done)

    def _done(self, future: asyncio.Future[list[DocumentTrack]]) -> None:
        if future.cancelled():
            return
        if (error := future.exception()) is not None:
            log.error("asking the module stores again failed: %r", error)
            return
        open_tracks = set(map(id, self._documents.values()))
        changed = [track for track in future.result() if id(track) in open_tracks]
        if changed:
            self._invalidated(changed)


def _current_and_asked(track: DocumentTrack) -> bool:
    latest = track.latest
    return latest is not None and latest.stamp == track.stamp and bool(latest.report.store_answers)


def _changed(asked: Iterable[Asked]) -> list[DocumentTrack]:
    """The documents whose module stores' answers changed (in the analysis pool)."""
    return [
        track
        for track, project, answers in asked
        if not ModuleResolver.of(project).answers_the_same(answers)
    ]
