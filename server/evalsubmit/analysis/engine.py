"""Entry point of the analysis core (work in progress: being filled in by the engine work)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from evalsubmit.analysis.project import Project
from evalsubmit.analysis.report import ModuleReport


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    select: frozenset[str] = frozenset()
    """Codes (or prefixes such as ``ES1``) to report; empty means all."""
    ignore: frozenset[str] = frozenset()
    max_bytes: int = 2_000_000
    """Larger sources are skipped with a reason instead of analysed."""


def analyze_source(
    source: str,
    *,
    path: Path | None = None,
    project: Project | None = None,
    options: AnalysisOptions | None = None,
) -> ModuleReport:
    return ModuleReport(path=path)
