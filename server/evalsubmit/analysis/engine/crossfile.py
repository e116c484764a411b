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
    asked,
    reads_the_same,
    text_digest,
)
from evalsubmit.analysis.interp.modules import ModuleResolver
from evalsubmit.analysis.report import ModuleReport
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.core.findings import Finding
from evalsubmit.workspace import observed
from evalsubmit.workspace.disk_texts import signature_of
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
        self.texts: dict[Path, tuple[object, str | None, dict[str, bool]]] = {}
        """A file on disk -> when it was read (its stat, or the project's generation when the
        project is told of changes), its text if it names ``submit`` (else None: it never
        reports into another), and whether it names each module's name asked about."""

    def may_import(self, project: Project, path: Path, stem: str) -> bool:
        """Whether the file on disk ``path`` names ``stem`` and ``submit``: read again when
        its stat changed, or, in a project told of changes, when its generation did."""
        read_at: object
        if project.watched:
            read_at = project.generation
        else:
            read_at = signature_of(path)
            if read_at is None:
                return False
        with self.lock:
            kept = self.texts.get(path)
        if kept is None or kept[0] != read_at:
            text = project.read_unobserved(path)
            submitting = text if text is not None and "submit" in text else None
            kept = (read_at, submitting, {})
            with self.lock:
                self.texts[path] = kept
        text, names = kept[1], kept[2]
        if text is None:
            return False
        found = names.get(stem)
        if found is None:
            found = names[stem] = stem in text
        return found


_CACHES: weakref.WeakKeyDictionary[Project, _ImporterCache] = weakref.WeakKeyDictionary()
_CACHES_LOCK = threading.Lock()


def importers(project: Project, path: Path) -> list[Path]:
    """Project modules that may import ``path`` and submit: they can report into it (an
    editor buffer as its text, a file on disk as :meth:`_ImporterCache.may_import` keeps it).
    """
    stem = path.stem if path.stem != "__init__" else path.parent.name
    noting = observed.noting()  # then every file read is an observation of the analysis
    cache = None if noting else _cache_of(project)
    overlaid = project.overlaid()
    found = []
    for candidate in project.python_files():
        if candidate == path:
            continue
        if cache is None:
            reports = _may_import(project.read(candidate), stem)
        elif candidate in overlaid:
            reports = _may_import(project.read_unobserved(candidate), stem)
        else:
            reports = cache.may_import(project, candidate, stem)
        if reports:
            found.append(candidate)
    return found


def _may_import(text: str | None, stem: str) -> bool:
    return text is not None and stem in text and "submit" in text


def remote_findings_for(
    project: Project,
    path: Path,
    options: AnalysisOptions,
    analyze: ForwardAnalysis,
    answers: dict[Question, Answer] | None = None,
) -> list[Finding]:
    """Findings that other modules' submits place in ``path`` (cached by their content);
    ``analyze`` is the forward analysis of a module. The questions the importers' analyses
    asked of other files, with their answers, go into ``answers``: the findings rest on them
    as the module's own do on its own (a store typed into a third file changes them)."""
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
        if answers is not None:
            for question, answer in entry[2]:
                asked(answers, question, answer)
    return results


def _cache_of(project: Project) -> _ImporterCache:
    with _CACHES_LOCK:
        cache = _CACHES.get(project)
        if cache is None:
            cache = _CACHES[project] = _ImporterCache()
        return cache
