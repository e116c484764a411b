"""Findings that other modules place in this one: a bad value written here (a config in
``runners.py``) is reported here when a sibling module (``job.py``) submits it.

For each project module that may import this one and calls ``submit``, its forward analysis
is cached by its content, the content of every module it read (this one included: a line
inserted here moves what it reports here) and the module stores' answers it got (a store of a
module attribute it read, added in a file that stored nothing); the findings it places in this
module are taken from it.
"""

from __future__ import annotations

import threading
import weakref
from pathlib import Path
from typing import Protocol

from evalsubmit.analysis.engine.options import AnalysisOptions
from evalsubmit.analysis.interp.grouping import (
    Answer,
    Question,
    reads_the_same,
    text_digest,
)
from evalsubmit.analysis.interp.modules import ModuleResolver
from evalsubmit.analysis.report import ModuleReport
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.core.findings import Finding
from evalsubmit.workspace.project import Project

Remote = tuple[tuple[Path, Finding], ...]
Texts = tuple[tuple[Path, str], ...]
Answers = tuple[tuple[Question, Answer], ...]


class ForwardAnalysis(Protocol):
    """The signature of :func:`evalsubmit.analysis.engine.analyze.analyze_module`."""

    def __call__(
        self,
        source: str,
        *,
        path: Path | None,
        project: Project | None,
        options: AnalysisOptions,
    ) -> tuple[ModuleReport, ParsedModule | None]: ...


class _ImporterCache:
    """Per project: (importer path, content digest, options) -> the findings it places
    elsewhere (options matter: a disabled rule is not run)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.entries: dict[tuple[Path, str, AnalysisOptions], tuple[Remote, Texts, Answers]] = {}


_CACHES: weakref.WeakKeyDictionary[Project, _ImporterCache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def importers(project: Project, path: Path) -> list[Path]:
    """Project modules that may import ``path`` and submit: they can report into it."""
    stem = path.stem if path.stem != "__init__" else path.parent.name
    found = []
    for candidate in project.python_files():
        if candidate == path:
            continue
        text = project.read(candidate)
        if text and stem in text and "submit" in text:
            found.append(candidate)
    return found


def remote_findings_for(
    project: Project,
    path: Path,
    options: AnalysisOptions,
    analyze: ForwardAnalysis,
) -> list[Finding]:
    """Findings that other modules' submits place in ``path`` (cached by their content);
    ``analyze`` is the forward analysis of a module."""
    cache = _cache_of(project)
    results: list[Finding] = []
    for importer in importers(project, path):
        text = project.read(importer)
        if text is None:
            continue
        # what its imports resolve to depends on the installed packages too
        key = (importer, f"{text_digest(text)}:{project.environment_stamp()}", options)
        with cache.lock:
            entry = cache.entries.get(key)
        if (
            entry is None
            or not reads_the_same(project.read, entry[1])
            or not ModuleResolver.of(project).answers_the_same(dict(entry[2]))
        ):
            report, _ = analyze(text, path=importer, project=project, options=options)
            entry = (report.remote_findings, report.dependency_texts, report.store_answers)
            with cache.lock:
                cache.entries = {
                    k: v for k, v in cache.entries.items() if k[0] != importer or k[2] != options
                }
                cache.entries[key] = entry
        results.extend(f for target, f in entry[0] if target == path)
    return results


def _cache_of(project: Project) -> _ImporterCache:
    with _CACHES_LOCK:
        cache = _CACHES.get(project)
        if cache is None:
            cache = _CACHES[project] = _ImporterCache()
        return cache
