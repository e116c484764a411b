"""The caches that make re-analysing one document after an edit cost what the edit touched.

Two caches survive between analyses of the same document:

* parsed top-level statements, by text (``ChunkCache`` of :mod:`evalsubmit.analysis.source`):
  an edit re-parses only the statements it touched;
* results of each top-level statement and of the function bodies it defines, by a key made of
  everything they can depend on: the statement's own text and position, every statement that
  writes a name it reads (transitively; :mod:`..interp.harmless` says what a statement may
  change without naming it), and the contents of the sibling modules the document imports from.

After an edit, the statements whose key changed are walked, with every statement that writes a
name they read (transitively): the values they read are then those of a walk of the whole
module. The other statements are not walked at all; their results come from the cache. A
function body's walk changes nothing the others see (:mod:`..values.journal`), so bodies are
independent of each other.

Correctness is checked by tests that compare, after every edit of long random edit sequences
(characters in the examples, statements in generated programs of aliases, helpers, user
objects and fixtures), the incremental result with a fresh analysis.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from evalsubmit.analysis.interp.effects import Effects, effects
from evalsubmit.analysis.interp.grouping import Grouping, reads_the_same
from evalsubmit.analysis.interp.harmless import Resolved, harmless_names, resolve
from evalsubmit.analysis.report import SubmitReport, TargetPreview
from evalsubmit.analysis.source.chunks import ChunkCache
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.core.blake import blake2b
from evalsubmit.core.findings import Finding
from evalsubmit.workspace.project import Project


@dataclass(frozen=True, slots=True)
class Graph:
    """Who reads and writes what, for one list of statement effects (kept while an edit
    leaves them equal: an edit inside a literal, say)."""

    effects: list[Effects]
    reads: list[frozenset[str]]
    written_by: list[frozenset[str]]
    """The names each statement can change, including through the functions it calls."""
    writers: dict[str, list[int]]
    readers: dict[str, list[int]]


def _graph(found: list[Effects], resolved: Resolved) -> Graph:
    callee_writes = {
        name: statement.writes_when_called
        for statement in found
        if statement.writes_when_called
        for name in statement.writes
    }
    writers: dict[str, list[int]] = {}
    readers: dict[str, list[int]] = {}
    written_by: list[frozenset[str]] = []
    for index, statement in enumerate(found):
        written = set(resolved.writes[index])
        for name in statement.reads & callee_writes.keys():
            written |= callee_writes[name]
        for name in written:
            writers.setdefault(name, []).append(index)
        for name in resolved.reads[index]:
            readers.setdefault(name, []).append(index)
        written_by.append(frozenset(written))
    return Graph(found, resolved.reads, written_by, writers, readers)


Remembered = tuple[str, frozenset[str], frozenset[str]]
"""A statement's key, the names it reads, the names it writes."""


@dataclass(frozen=True, slots=True)
class GroupResult:
    findings: tuple[Finding, ...]
    runners: tuple[TargetPreview, ...]
    submits: tuple[SubmitReport, ...]
    remote: tuple[tuple[Path, Finding], ...]
    workspaces: tuple[str, ...] = ()
    dependencies: frozenset[Path] = frozenset()
    errors: tuple[str, ...] = ()


@dataclass(slots=True)
class AnalysisCaches:
    chunks: ChunkCache = field(default_factory=ChunkCache)
    groups: dict[str, GroupResult] = field(default_factory=dict)
    effects: dict[str, Effects] = field(default_factory=dict)
    """What each statement text reads and writes, by chunk digest and position in the chunk."""
    texts: dict[Path, str] = field(default_factory=dict)
    """The sibling modules the last analysis read, each with the digest of the text it read
    (the resolver notes them as it reads). When one of them now reads differently, or the
    installed packages changed (``environment``), no cached result stands."""
    environment: str | None = None
    resolved: Graph | None = None
    """The module-wide reads and writes of the last analysis, for the effects they came from."""
    previous: dict[str, Remembered] = field(default_factory=dict)
    """Each statement of the last analysis (by identity): its key, reads and writes."""
    bare: frozenset[str] = frozenset()
    """Keys of top-level statements whose last walk deferred no function body."""
    walked: int = 0
    """Groups of function bodies walked (not taken from the cache) by the last analysis."""
    reused: int = 0
    skipped: int = 0
    """Top-level statements the last analysis did not walk at all."""

    def grouping(
        self, parsed: ParsedModule, project: Project | None, path: Path | None = None
    ) -> Grouping | None:
        """How the interpreter groups this text's facts for the cache (None: not cacheable)."""
        self.walked = self.reused = self.skipped = 0
        if not parsed.chunks:
            return None  # parsed whole: positions of statements are not tracked, so no cache
        if not self._dependencies_unchanged(project):
            self.groups = {}
            self.previous = {}
            self.resolved = None
        keyer = _Keyer(parsed, self, project, path)
        count = len(parsed.tree.body)
        changed = {i for i in range(count) if not self._unchanged(keyer.key(i))}
        self.previous = keyer.remembered()
        walk = keyer.needed(changed) if len(changed) < count else None
        if walk is not None:
            self.skipped = count - len(walk)
        return Grouping(key=keyer.key, known=self.groups.keys(), walk=walk)

    def _dependencies_unchanged(self, project: Project | None) -> bool:
        environment = project.environment_stamp() if project is not None else None
        if environment != self.environment:
            self.environment = environment
            return False
        if project is None:
            return not self.texts
        return reads_the_same(project.read, self.texts.items())

    def remember(self, read: dict[Path, str], dependencies: frozenset[Path]) -> None:
        """After an analysis: the texts it read (``read``, noted by the walk; the modules of
        statements not walked were read, unchanged, by an earlier analysis)."""
        self.texts = {path: read.get(path, self.texts.get(path, "")) for path in dependencies}

    def _unchanged(self, key: str | None) -> bool:
        """Results of the statement with this key (its own and its bodies') are cached."""
        if key is None or f"{key}:top" not in self.groups:
            return False
        return f"{key}:bodies" in self.groups or key in self.bare

    def keep(self, keys: Iterable[str | None]) -> None:
        """Forget results no longer reachable (bounded memory for a long editing session)."""
        live = {key for key in keys if key is not None}
        self.groups = {k: v for k, v in self.groups.items() if k in live}
        tops = {k.removesuffix(":top") for k in live if k.endswith(":top")}
        self.bare = frozenset(k for k in tops if f"{k}:bodies" not in live)


class _Keyer:
    """Cache keys of top-level statements: everything their results can depend on."""

    def __init__(
        self,
        parsed: ParsedModule,
        caches: AnalysisCaches,
        project: Project | None,
        path: Path | None = None,
    ):
        self.caches = caches
        self.project = project
        self.path = path
        starts = [chunk.start for chunk in parsed.chunks]
        self.identity: list[str] = []
        self.effects: list[Effects] = []
        known: dict[str, Effects] = {}
        for statement in parsed.tree.body:
            chunk = parsed.chunks[bisect.bisect_right(starts, statement.lineno) - 1]
            self.identity.append(
                f"{chunk.digest}@{chunk.start}:{statement.lineno}:{statement.col_offset}"
            )
            text_key = f"{chunk.digest}+{statement.lineno - chunk.start}:{statement.col_offset}"
            found = caches.effects.get(text_key) or effects(statement)
            known[text_key] = found
            self.effects.append(found)
        caches.effects = known
        # Effects compare by value: an edit inside a literal leaves them equal, and then the
        # module-wide resolution (which reads every statement's) is the one of last time.
        if caches.resolved is None or caches.resolved.effects != self.effects:
            sibling = self._sibling if project is not None else None
            caches.resolved = _graph(self.effects, resolve(self.effects, sibling))
        graph = caches.resolved
        self.reads = graph.reads
        self.written_by = graph.written_by
        self.writers = graph.writers
        self.readers = graph.readers
        self._memo: dict[int, str] = {}
        self._digests: dict[str, bytes] = {}
        self._successors: dict[str, list[str]] = {}
        self.affected = self._affected(caches.previous)

    def _affected(self, previous: dict[str, Remembered]) -> set[int]:
        """Statements whose key may differ from last time: new ones, ones whose reads or
        writes changed (a helper that became harmful changes its callers' writes), and every
        statement reading a name whose writers, or what they read, changed; removed statements
        count through the names they wrote. The others keep their previous key."""
        seeds: set[int] = set()
        names: set[str] = set()
        present = set(self.identity)
        for identity, (_, _, written) in previous.items():
            if identity not in present:
                names |= written
        for index, identity in enumerate(self.identity):
            before = previous.get(identity)
            if before is None or before[1] != self.reads[index]:
                seeds.add(index)
                names |= self.written_by[index]
            elif before[2] != self.written_by[index]:
                seeds.add(index)
                names |= self.written_by[index] | before[2]
        readers = self.readers
        affected = set(seeds)
        pending = list(names)
        while pending:
            for reader in readers.get(pending.pop(), ()):
                if reader not in affected:
                    affected.add(reader)
                    fresh = self.written_by[reader] - names
                    names |= fresh
                    pending.extend(fresh)
        return affected

    def remembered(self) -> dict[str, Remembered]:
        return {
            identity: (key, self.reads[index], self.written_by[index])
            for index, identity in enumerate(self.identity)
            if (key := self.key(index)) is not None
        }

    def key(self, owner: int) -> str | None:
        if owner < 0 or owner >= len(self.identity):
            return None
        if owner not in self._memo:
            before = self.caches.previous.get(self.identity[owner])
            if owner not in self.affected and before is not None:
                self._memo[owner] = before[0]
                return before[0]
            read = sorted(self.reads[owner] & self.writers.keys())
            self._name_digests(read)
            digest = blake2b(digest_size=16)
            digest.update(self.identity[owner].encode())
            for name in read:
                digest.update(self._digests[name])
            self._memo[owner] = digest.hexdigest()
        return self._memo[owner]

    def _reads_of(self, name: str) -> list[str]:
        """The written names the writers of ``name`` read (what its value depends on)."""
        found = self._successors.get(name)
        if found is None:
            found = sorted(
                {m for i in self.writers[name] for m in self.reads[i] if m in self.writers}
            )
            self._successors[name] = found
        return found

    def _sibling(self, module: str, level: int, name: str) -> tuple[bool, bool]:
        """What ``name`` is in the project module ``from module import name`` reads (the
        import makes it a dependency: when its text changes, no cached result stands)."""
        assert self.project is not None
        if level:
            if self.path is None:
                return False, False
            parts = self.project.module_name(self.path).split(".")
            package = parts[: max(len(parts) - level, 0)]
            module = ".".join([*package, module] if module else package)
        found = self.project.find_module(module, self.path) if module else None
        text = self.project.read(found) if found is not None else None
        if text is None:
            return False, False
        names, objects = _module_harmless(text)
        return name in names, name in objects

    def needed(self, changed: set[int]) -> frozenset[int]:
        """The statements to walk after ``changed`` changed: those, and every statement that
        writes a name they read, transitively (the values they read are then exactly those of
        a walk of every statement; nothing else can reach them)."""
        needed = set(changed)
        pending = list(changed)
        while pending:
            for name in self.reads[pending.pop()]:
                for writer in self.writers.get(name, ()):
                    if writer not in needed:
                        needed.add(writer)
                        pending.append(writer)
        return frozenset(needed)

    def _name_digests(self, roots: list[str]) -> None:
        """For each written name reachable from ``roots``, a digest of every statement its
        value can depend on: its writers, the writers of the names they read, and so on. Names
        that depend on each other (a strongly connected component, found with Tarjan's
        algorithm) share one. Computed once per name, on demand."""
        digests = self._digests
        index: dict[str, int] = {name: -1 for name in digests}  # done: never on the stack
        low: dict[str, int] = {}
        stack: list[str] = []
        on_stack: set[str] = set()
        for root in roots:
            if root in index:
                continue
            work = [(root, iter(self._reads_of(root)))]
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
                        work.append((successor, iter(self._reads_of(successor))))
                        break
                    if successor in on_stack:
                        low[name] = min(low[name], index[successor])
                else:
                    work.pop()
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[name])
                    if low[name] == index[name]:
                        self._close_component(name, stack, on_stack, digests)

    def _close_component(
        self,
        root: str,
        stack: list[str],
        on_stack: set[str],
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
        digest = blake2b(digest_size=16)
        for statement in sorted({i for m in members for i in self.writers[m]}):
            digest.update(self.identity[statement].encode())
        outside = sorted({s for m in members for s in self._reads_of(m)} - component)
        for successor in outside:
            digest.update(digests[successor])
        value = digest.digest()
        for member in members:
            digests[member] = value


_HARMLESS: dict[str, tuple[frozenset[str], frozenset[str]]] = {}


def _module_harmless(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """Harmless callables and objects of a sibling module's text (memoised by text)."""
    found = _HARMLESS.get(text)
    if found is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return frozenset(), frozenset()
        found = harmless_names([effects(statement) for statement in tree.body])
        if len(_HARMLESS) > 256:
            _HARMLESS.clear()
        _HARMLESS[text] = found
    return found
