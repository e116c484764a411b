"""Successive versions of one document (the language server's view): each analysis reuses
what the edit left unchanged (:mod:`.caches`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from evalsubmit.analysis.engine.analyze import analyze_source
from evalsubmit.analysis.engine.caches import AnalysisCaches
from evalsubmit.analysis.engine.options import AnalysisOptions
from evalsubmit.analysis.report import ModuleReport
from evalsubmit.workspace.project import Project


class DocumentAnalyzer:
    def __init__(
        self,
        path: Path | None = None,
        project: Project | None = None,
        options: AnalysisOptions | None = None,
    ) -> None:
        self.path = path
        self.project = project
        self.options = options
        self.caches = AnalysisCaches()

    def analyze(
        self,
        text: str,
        *,
        reverse: bool = True,
        on_findings: Callable[[ModuleReport], None] | None = None,
    ) -> ModuleReport:
        """The report of ``text`` (``on_findings``: see ``analyze_source``)."""
        return analyze_source(
            text,
            path=self.path,
            project=self.project,
            options=self.options,
            reverse=reverse,
            caches=self.caches,
            on_findings=on_findings,
        )
