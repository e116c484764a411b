"""What a request handler sees of a document: a :class:`Snapshot`, taken once per request.

:class:`Analysis` is one finished analysis of a document (the scheduler stores and publishes
them; :mod:`.scheduler`). A :class:`Snapshot` is the document as a request found it: its text,
version and settings at that moment, and the analysis the request is answered from (which may
be of an older text: ``current`` says whether it is of this one). Both are immutable, so a
handler that awaits (a thread pool, the platform) still reasons about one state of the document,
whatever edits arrive meanwhile.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from pathlib import Path

from evalsubmit.analysis import ModuleReport
from evalsubmit.core.records import record
from evalsubmit.lsp.project_config import Effective
from evalsubmit.lsp.settings import Settings


@record
class Analysis:
    """One finished analysis of one document, with everything needed to render it."""

    stamp: int
    version: int | None
    text: str
    lines: Sequence[str]
    """The text's lines (:func:`evalsubmit.core.lines.split_lines`)."""
    settings: Settings
    effective: Effective
    """The options, default taskset and configuration file it was checked with."""
    report: ModuleReport
    reverse_pending: bool = False
    """Its findings are the document's own only: what other modules report into it is being
    computed, and a second result for the same stamp follows (lsp/jobs.py)."""
    remote_shown: bool = False
    """Its findings include some that other modules report into it."""
    summaries_pending: bool = False
    """Its report has the findings only: the analysis is still making its runner previews and
    submit summaries (diagnostics are published from it; every other feature waits)."""

    @property
    def order(self) -> tuple[int, bool, bool]:
        """Results are kept and published in this order: by stamp, then the complete one
        after the forward one of the same stamp (and the forward one after its findings)."""
        return self.stamp, not self.reverse_pending, not self.summaries_pending


@record
class Snapshot:
    """One open document as a request found it. For a notebook cell, the notebook's: requests
    on cells are answered on the notebook's joined module (:mod:`.cell_features`)."""

    uri: str
    path: Path
    version: int | None
    text: str
    """The text the editor has now (an edit offered must be computed on this one)."""
    settings: Settings
    """The settings of the document's folder."""
    analysis: Analysis | None
    """The analysis the request is answered from (None: not analysed yet)."""
    fresh: bool = False
    """The analysis is of the document's present state: its text, its settings and the modules
    it depends on (*Submit evaluation* never sends what an older state said)."""
    cell_versions: Mapping[str, int | None] = field(default_factory=dict)
    """For a notebook: the version of each of its cells (an edit of a cell names it)."""

    @property
    def analysed(self) -> Analysis:
        """The analysis, for a feature registered to wait for one (:class:`.requests.Wait`):
        such a request is never answered without it."""
        if self.analysis is None:
            raise LookupError(f"{self.uri} has no analysis")
        return self.analysis

    @property
    def current(self) -> bool:
        """The analysis is of the present text: its positions and fixes apply to it as they are."""
        return self.analysis is not None and self.analysis.text == self.text
