"""Incremental re-analysis of one document across edits.

Two caches survive between analyses of the same document:

* parsed top-level statements, by text (:class:`~evalsubmit.analysis.chunks.ChunkCache`): an
  edit re-parses only the statements it touched;
* rule results of each top-level definition's function bodies, by a key made of everything
  those results can depend on: the definition's own text and position, every definition it
  reaches by name (transitively), the module's other top-level statements, and the contents of
  the sibling modules the document imports from. The module's top level itself is walked every
  time (it binds the names everything else reads), which is cheap next to the bodies.

Correctness is checked by a test that compares, after every edit of a long random edit
sequence, the incremental result with a fresh analysis.
"""

from __future__ import annotations

import ast
import bisect
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.analysis.chunks import ChunkCache
from evalsubmit.analysis.findings import Finding
from evalsubmit.analysis.report import ModuleReport, SubmitReport, TargetPreview

if TYPE_CHECKING:
    from evalsubmit.analysis.engine import AnalysisOptions
    from evalsubmit.analysis.interp import Interpreter
    from evalsubmit.analysis.parse import ParsedModule
    from evalsubmit.analysis.project import Project

_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


@dataclass(frozen=True, slots=True)
class GroupResult:
    findings: tuple[Finding, ...]
    runners: tuple[TargetPreview, ...]
    submits: tuple[SubmitReport, ...]
    remote: tuple[tuple[Path, Finding], ...]


@dataclass(slots=True)
class AnalysisCaches:
    chunks: ChunkCache = field(default_factory=ChunkCache)
    groups: dict[str, GroupResult] = field(default_factory=dict)
    names: dict[str, frozenset[str]] = field(default_factory=dict)
    """Names each statement text reads, by chunk digest."""
    dependencies: frozenset[Path] = frozenset()
    walked: int = 0
    """Groups of function bodies walked (not taken from the cache) by the last analysis."""
    reused: int = 0

    def prepare(
        self, interpreter: Interpreter, parsed: ParsedModule, project: Project | None
    ) -> None:
        self.walked = self.reused = 0
        if not parsed.chunks:
            return  # parsed whole: positions of statements are not tracked, so no group cache
        keyer = _Keyer(parsed, self, project)
        interpreter.group_key = keyer.key
        interpreter.known_keys = self.groups.keys()

    def keep(self, keys: Iterable[str | None]) -> None:
        """Forget results no longer reachable (bounded memory for a long editing session)."""
        live = {key for key in keys if key is not None}
        self.groups = {k: v for k, v in self.groups.items() if k in live}


class _Keyer:
    def __init__(self, parsed: ParsedModule, caches: AnalysisCaches, project: Project | None):
        self.parsed = parsed
        self.caches = caches
        self.project = project
        starts = [chunk.start for chunk in parsed.chunks]
        body = parsed.tree.body
        self.identity: list[str] = []
        self.reads: list[frozenset[str]] = []
        self.definers: dict[str, int] = {}
        skeleton = hashlib.blake2b(digest_size=16)
        used: dict[str, frozenset[str]] = {}
        for index, statement in enumerate(body):
            chunk = parsed.chunks[bisect.bisect_right(starts, statement.lineno) - 1]
            identity = f"{chunk.digest}@{chunk.start}:{statement.lineno}"
            self.identity.append(identity)
            text_key = f"{chunk.digest}+{statement.lineno - chunk.start}:{statement.col_offset}"
            names = caches.names.get(text_key)
            if names is None:
                names = frozenset(n.id for n in ast.walk(statement) if isinstance(n, ast.Name))
            used[text_key] = names
            self.reads.append(names)
            if isinstance(statement, _DEFINITIONS):
                self.definers[statement.name] = index
            else:
                skeleton.update(identity.encode())
        caches.names = used
        self.skeleton = skeleton.hexdigest()
        self._dependencies: str | None = None
        self._memo: dict[int, str] = {}

    def key(self, owner: int) -> str | None:
        if owner < 0 or owner >= len(self.identity):
            return None
        if owner not in self._memo:
            reached = self._reachable(owner)
            digest = hashlib.blake2b(digest_size=16)
            digest.update(self.skeleton.encode())
            digest.update(self.dependency_digest().encode())
            for index in sorted(reached):
                digest.update(self.identity[index].encode())
            self._memo[owner] = digest.hexdigest()
        return self._memo[owner]

    def _reachable(self, owner: int) -> set[int]:
        reached = {owner}
        pending = [owner]
        while pending:
            for name in self.reads[pending.pop()]:
                index = self.definers.get(name)
                if index is not None and index not in reached:
                    reached.add(index)
                    pending.append(index)
        return reached

    def dependency_digest(self) -> str:
        """Contents of the sibling modules this document read last time (or reads now)."""
        if self._dependencies is None:
            digest = hashlib.blake2b(digest_size=16)
            if self.project is not None:
                for path in sorted(self.caches.dependencies):
                    text = self.project.read(path) or ""
                    digest.update(str(path).encode())
                    digest.update(text.encode("utf-8", "surrogatepass"))
            self._dependencies = digest.hexdigest()
        return self._dependencies


class DocumentAnalyzer:
    """Analyses successive versions of one document, reusing what an edit left unchanged."""

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

    def analyze(self, text: str, *, reverse: bool = True) -> ModuleReport:
        from evalsubmit.analysis.engine import analyze_source

        report = analyze_source(
            text,
            path=self.path,
            project=self.project,
            options=self.options,
            reverse=reverse,
            caches=self.caches,
        )
        self.caches.dependencies = report.dependencies
        return report
