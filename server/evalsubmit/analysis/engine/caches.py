"""The caches that make re-analysing one document after an edit cost what the edit touched.

Two caches survive between analyses of the same document:

* parsed top-level statements, by text (``ChunkCache`` of :mod:`evalsubmit.analysis.source`):
  an edit re-parses only the statements it touched;
* rule results of each top-level definition's function bodies, by a key made of everything
  those results can depend on: the definition's own text and position, every definition it
  reaches by name (transitively), the module's other top-level statements, and the contents of
  the sibling modules the document imports from. The module's top level itself is walked every
  time (it binds the names everything else reads), which is cheap next to the bodies.

Correctness is checked by a test that compares, after every edit of a long random edit
sequence, the incremental result with a fresh analysis.
"""

from __future__ import annotations

import bisect
import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from evalsubmit.analysis.interp.effects import Effects, effects
from evalsubmit.analysis.interp.interpreter import Grouping
from evalsubmit.analysis.report import SubmitReport, TargetPreview
from evalsubmit.analysis.source.chunks import ChunkCache
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.core.findings import Finding
from evalsubmit.workspace.project import Project


@dataclass(frozen=True, slots=True)
class GroupResult:
    findings: tuple[Finding, ...]
    runners: tuple[TargetPreview, ...]
    submits: tuple[SubmitReport, ...]
    remote: tuple[tuple[Path, Finding], ...]
    workspaces: tuple[str, ...] = ()


@dataclass(slots=True)
class AnalysisCaches:
    chunks: ChunkCache = field(default_factory=ChunkCache)
    groups: dict[str, GroupResult] = field(default_factory=dict)
    effects: dict[str, Effects] = field(default_factory=dict)
    """What each statement text reads and writes, by chunk digest and position in the chunk."""
    dependencies: frozenset[Path] = frozenset()
    walked: int = 0
    """Groups of function bodies walked (not taken from the cache) by the last analysis."""
    reused: int = 0

    def grouping(self, parsed: ParsedModule, project: Project | None) -> Grouping | None:
        """How the interpreter groups this text's facts for the cache (None: not cacheable)."""
        self.walked = self.reused = 0
        if not parsed.chunks:
            return None  # parsed whole: positions of statements are not tracked, so no cache
        return Grouping(key=_Keyer(parsed, self, project).key, known=self.groups.keys())

    def keep(self, keys: Iterable[str | None]) -> None:
        """Forget results no longer reachable (bounded memory for a long editing session)."""
        live = {key for key in keys if key is not None}
        self.groups = {k: v for k, v in self.groups.items() if k in live}


class _Keyer:
    """Cache keys of top-level statements: everything their results can depend on."""

    def __init__(self, parsed: ParsedModule, caches: AnalysisCaches, project: Project | None):
        self.caches = caches
        self.project = project
        starts = [chunk.start for chunk in parsed.chunks]
        self.identity: list[str] = []
        self.effects: list[Effects] = []
        known: dict[str, Effects] = {}
        for statement in parsed.tree.body:
            chunk = parsed.chunks[bisect.bisect_right(starts, statement.lineno) - 1]
            self.identity.append(f"{chunk.digest}@{chunk.start}:{statement.lineno}")
            text_key = f"{chunk.digest}+{statement.lineno - chunk.start}:{statement.col_offset}"
            found = caches.effects.get(text_key) or effects(statement)
            known[text_key] = found
            self.effects.append(found)
        caches.effects = known
        self.writers = self._writers()
        self._dependencies: str | None = None
        self._memo: dict[int, str] = {}
        self._names: dict[str, bytes] | None = None

    def _writers(self) -> dict[str, list[int]]:
        """Name -> statements that can change it, including calls of functions that do."""
        callee_writes = {
            name: found.writes_when_called
            for found in self.effects
            if found.writes_when_called
            for name in found.writes
        }
        writers: dict[str, list[int]] = {}
        for index, found in enumerate(self.effects):
            written = set(found.writes)
            for name in found.reads & callee_writes.keys():
                written |= callee_writes[name]
            for name in written:
                writers.setdefault(name, []).append(index)
        return writers

    def key(self, owner: int) -> str | None:
        if owner < 0 or owner >= len(self.identity):
            return None
        if owner not in self._memo:
            if self._names is None:
                self._names = self._name_digests()
            digest = hashlib.blake2b(digest_size=16)
            digest.update(self.dependency_digest().encode())
            digest.update(self.identity[owner].encode())
            for name in sorted(self.effects[owner].reads & self._names.keys()):
                digest.update(self._names[name])
            self._memo[owner] = digest.hexdigest()
        return self._memo[owner]

    def _name_digests(self) -> dict[str, bytes]:
        """For each written name, a digest of every statement its value can depend on: its
        writers, the writers of the names they read, and so on. Names that depend on each
        other (a strongly connected component, found with Tarjan's algorithm) share one."""
        reads = {
            name: {m for i in writers for m in self.effects[i].reads if m in self.writers}
            for name, writers in self.writers.items()
        }
        digests: dict[str, bytes] = {}
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        for root in reads:
            if root in index:
                continue
            work = [(root, iter(sorted(reads[root])))]
            index[root] = low[root] = len(index)
            stack.append(root)
            on_stack.add(root)
            while work:
                name, successors = work[-1]
                for successor in successors:
                    if successor not in index:
                        index[successor] = low[successor] = len(index)
                        stack.append(successor)
                        on_stack.add(successor)
                        work.append((successor, iter(sorted(reads[successor]))))
                        break
                    if successor in on_stack:
                        low[name] = min(low[name], index[successor])
                else:
                    work.pop()
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[name])
                    if low[name] == index[name]:
                        self._close_component(name, stack, on_stack, reads, digests)
        return digests

    def _close_component(
        self,
        root: str,
        stack: list[str],
        on_stack: set[str],
        reads: dict[str, set[str]],
        digests: dict[str, bytes],
    ) -> None:
        members: list[str] = []
        while True:
            member = stack.pop()
            on_stack.discard(member)
            members.append(member)
            if member == root:
                break
        component = set(members)
        digest = hashlib.blake2b(digest_size=16)
        for statement in sorted({i for m in members for i in self.writers[m]}):
            digest.update(self.identity[statement].encode())
        outside = sorted({s for m in members for s in reads[m]} - component)
        for successor in outside:
            digest.update(digests[successor])
        value = digest.digest()
        for member in members:
            digests[member] = value

    def dependency_digest(self) -> str:
        """Contents of the sibling modules this document read last time (or reads now), and
        the state of the installed packages its imports may resolve to."""
        if self._dependencies is None:
            digest = hashlib.blake2b(digest_size=16)
            if self.project is not None:
                digest.update(self.project.environment_stamp().encode())
                for path in sorted(self.caches.dependencies):
                    text = self.project.read(path) or ""
                    digest.update(str(path).encode())
                    digest.update(text.encode("utf-8", "surrogatepass"))
            self._dependencies = digest.hexdigest()
        return self._dependencies
