"""The analyses a document's owner runs in the worker pool, in two steps per state:

* :func:`forward`: the document's own findings (its code, its submits), with the document's
  incremental analyzer. Its result is published at once.
* :func:`reverse`: what other modules of the project report into this one (a value written
  here, submitted there). It analyses the modules that import this one (cached by their
  content), which can take seconds in a project with heavy importers, so it never delays the
  forward result: the owner runs it afterwards, and publishes again if it changes anything.

Forward then reverse gives exactly what ``analyze_source(text, reverse=True)`` gives (the
engine's one-call form, which the CLI's preview uses: it is the engine's own reverse step,
``with_remote_findings``); tests/unit/test_lsp_jobs.py checks that they agree.
Both never raise: a failure is a result that says so.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.analysis import AnalysisOptions, DocumentAnalyzer, ModuleReport, Project
from evalsubmit.analysis.engine.analyze import with_remote_findings
from evalsubmit.core.lines import TextLines, split_lines
from evalsubmit.lsp.project_config import ProjectConfigs
from evalsubmit.lsp.settings import Settings
from evalsubmit.lsp.snapshot import Analysis

if TYPE_CHECKING:
    from evalsubmit.lsp.scheduler import DocumentTrack

log = logging.getLogger(__name__)

DISABLED = "disabled by the evalsubmit.enable setting"
INTERNAL_ERROR = "internal error (see log)"


def forward(
    track: DocumentTrack,
    stamp: int,
    version: int | None,
    text: str,
    starts: Sequence[int] | None,
    settings: Settings,
    configs: ProjectConfigs,
    project: Project,
    findings_ready: Callable[[Analysis], None],
) -> Analysis:
    """The document's own findings. Runs in a worker thread, one at a time per document (its
    owner waits for it); a failure drops the caches it may have half-updated.
    ``findings_ready`` gets them before the analysis makes its summaries (diagnostics first).
    ``starts``: the text's :func:`line_starts` when the server's document has them (its lines
    are then cut from the text as they are asked for, not split again at every edit)."""
    effective = configs.effective(track.path, settings)
    lines = TextLines(text, starts) if starts is not None else split_lines(text)

    def snapshot(report: ModuleReport, *, pending: bool, findings_only: bool = False) -> Analysis:
        return Analysis(
            stamp=stamp,
            version=version,
            text=text,
            lines=lines,
            settings=settings,
            effective=effective,
            report=report,
            reverse_pending=pending,
            summaries_pending=findings_only,
        )

    def early(report: ModuleReport) -> None:
        findings_ready(snapshot(report, pending=True, findings_only=True))

    skipped = effective.skipped if settings.enable else DISABLED
    if skipped is not None:  # disabled, excluded, or its configuration file is invalid
        return snapshot(ModuleReport(path=track.path, skipped=skipped), pending=False)
    try:
        analyzer = _incremental(track, project, effective.options)
        report = analyzer.analyze(text, reverse=False, on_findings=early)
    except Exception:
        log.exception("analysis of %s failed", track.uri)
        track.analyzer = None
        return snapshot(ModuleReport(path=track.path, skipped=INTERNAL_ERROR), pending=False)
    return snapshot(report, pending=report.skipped is None)


def reverse(snap: Analysis, path: Path, project: Project) -> Analysis:
    """``snap`` (a forward result) completed with what other modules report into it. Runs in a
    worker thread; touches no state of the document (only the project's importer cache)."""
    try:
        report = with_remote_findings(
            snap.report, snap.text, path=path, project=project, options=snap.effective.options
        )
    except Exception:
        log.exception("analysis of the modules importing %s failed", path)
        report = ModuleReport(path=path, skipped=INTERNAL_ERROR)
    return dataclasses.replace(
        snap,
        report=report,
        reverse_pending=False,
        remote_shown=report.findings != snap.report.findings,
    )


def _incremental(
    track: DocumentTrack, project: Project, options: AnalysisOptions
) -> DocumentAnalyzer:
    """The document's analyzer: it keeps what an edit leaves unchanged between analyses. A new
    one (empty caches) when the project or the options change."""
    analyzer = track.analyzer
    if analyzer is None or analyzer.project is not project or analyzer.options != options:
        analyzer = track.analyzer = DocumentAnalyzer(track.path, project, options)
    return analyzer
