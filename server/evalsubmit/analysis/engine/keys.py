"""Cache keys of top-level statements: everything their results can depend on.

A statement's key is a digest of its text and position and of every statement its values can
come from (the writers of the names it reads, transitively: :mod:`..interp.mutation` says what a
statement may change without naming it). Keys, and the per-statement tables they are computed
from, are kept between analyses of one document (:class:`.key_state.KeyState`): after an edit,
only the statements in chunks whose text or place changed are looked at again, and only the
keys an edit can change are computed again.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from pathlib import Path

from evalsubmit.analysis.engine.graph import Graph, graph_of
from evalsubmit.analysis.engine.identities import identities
from evalsubmit.analysis.engine.key_state import (
    KeyState,
    Remembered,
    sibling_non_mutating,
    statements_before,
    text_keys,
)
from evalsubmit.analysis.interp.effects import Effects, effects
from evalsubmit.analysis.interp.mutation import resolve
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.source.text_diff import same_ends
from evalsubmit.core.blake import blake2b
from evalsubmit.workspace.project import Project


class Keyer:
    """Cache keys of the top-level statements of one parse (``state``: the last analysis's,
    updated in place to this one's)."""

    def __init__(
        self,
        parsed: ParsedModule,
        state: KeyState,
        project: Project | None,
        path: Path | None = None,
    ):
        self.state = state
        self.project = project
        self.path = path
        complete, state.complete = state.complete, False
        # A run of chunks equal to the last parse's holds the same statements: their
        # identities and effects are sliced out of the last tables; the others are looked
        # at. The leading run is of chunks at the same place (equal in start, end and
        # digest); the trailing one of chunks of the same texts, wherever they moved
        # (identities and effects hold no place).
        old_count = len(state.identity)
        head, _ = same_ends(state.chunks, parsed.chunks)
        old_rest = [chunk.digest for chunk in state.chunks[head:]]
        new_rest = [chunk.digest for chunk in parsed.chunks[head:]]
        same, tail = same_ends(old_rest, new_rest)
        if old_rest == new_rest:  # the same code throughout, blank lines moved: all of it
            tail = same
        first = statements_before(state, head)
        stop = statements_before(state, len(state.chunks) - tail)
        body = parsed.tree.body
        new_stop = len(body) - (old_count - stop)
        middle = range(first, new_stop)
        """The statements not known from the last parse (by index in this one)."""
        self.edited = (first, stop, new_stop)
        """The last parse's statements ``first:stop`` are this one's ``first:new_stop``."""
        chunks = parsed.chunks[head : len(parsed.chunks) - tail]
        starts = [chunk.start for chunk in chunks]
        bases: list[str] = []
        found: list[Effects] = []
        for statement in body[first:new_stop]:
            chunk = chunks[bisect.bisect_right(starts, statement.lineno) - 1]
            text_key = f"{chunk.digest}+{statement.lineno - chunk.start}:{statement.col_offset}"
            bases.append(text_key)
            known = state.by_text.get(text_key)
            if known is None:
                known = state.by_text[text_key] = effects(statement)
            found.append(known)
        old, old_bases = state.identity, state.bases
        state.bases = [*old_bases[:first], *bases, *old_bases[stop:]]
        self.identity, kept = identities(old, old_bases[first:stop], bases, state.bases, first)
        # A repeat of a text added or removed renumbers the later repeats of it: those are
        # looked at too (each takes over the identity, and results, of another repeat).
        renumbered: list[int] = []
        if not kept:
            renumbered = [i for i in range(first) if self.identity[i] != old[i]]
            renumbered += [
                i
                for i in range(new_stop, len(body))
                if self.identity[i] != old[i - new_stop + stop]
            ]
        looked_at: range | set[int] = middle
        gone = set(old[first:stop])
        if renumbered:
            looked_at = {*middle, *renumbered}
            gone.update(old[i] if i < first else old[i - new_stop + stop] for i in renumbered)
        removed = gone.difference(self.identity[i] for i in looked_at)
        self.effects = [*state.effects[:first], *found, *state.effects[stop:]]
        # each chunk's first statement: the trailing run's hold the same statements as before
        # (no statement of theirs is read: reading every one's line was slow)
        lines = [statement.lineno for statement in body[first:new_stop]]
        state.firsts = [
            *state.firsts[:head],
            *(first + bisect.bisect_left(lines, chunk.start) for chunk in chunks),
            *map((new_stop - stop).__add__, state.firsts[len(state.chunks) - tail :]),
        ]
        state.chunks, state.identity, state.effects = parsed.chunks, self.identity, self.effects
        state.source = parsed.lines
        if len(state.by_text) > 2 * len(body) + 64:  # forget texts long gone (bounded memory)
            state.by_text = dict(zip(text_keys(parsed), self.effects, strict=True))
        # Effects compare by value: an edit inside a literal leaves them equal, and then the
        # module-wide resolution (which reads every statement's) is the one of last time.
        old_graph = state.resolved
        same_graph = old_graph is not None and old_graph.effects == self.effects
        if not same_graph:
            sibling = self._sibling if project is not None else None
            # The last resolution and graph are updated where the edit changed statements,
            # when what the others resolve from is the same (each checks it).
            since = None
            if old_graph is not None:
                since = (old_graph.effects, old_graph.resolved, self.edited)
            resolved = resolve(self.effects, sibling, state.non_mutating, since)
            state.resolved = graph_of(self.effects, resolved, old_graph, self.edited)
        graph = state.resolved
        assert graph is not None
        self.reads = graph.reads
        self.written_by = graph.written_by
        self.writers = graph.writers
        self.readers = graph.readers
        self._memo: dict[int, str] = {}
        self._ranks: dict[int, tuple[int, ...]] = {}
        self._digests: dict[str, bytes] = {}
        self._successors: dict[str, list[str]] = {}
        self.candidates: range | set[int] | None = None
        """The statements whose key or results may differ from last time (None: all)."""
        if complete and old_graph is not None and len(state.previous) == old_count:
            # Only the statements looked at, and those whose reads or writes the module-wide
            # resolution changed (none when the effects are the same), can be seeds; removed
            # statements are among the last tables' ones they replace.
            seeds = looked_at
            if not same_graph and not graph.updated:  # (updated: the others' rows are kept)
                moved = self._resolved_anew(old_graph, first, new_stop, stop)
                seeds = {*looked_at, *moved} if moved else looked_at
            self.affected = self._affected(state.previous, seeds, removed)
            self.candidates = self.affected.union(seeds)
        else:
            self.affected = self._affected(state.previous, range(len(body)), None)

    def _resolved_anew(self, old: Graph, first: int, new_stop: int, stop: int) -> list[int]:
        """Statements outside the edited run whose reads or writes differ from the last
        graph's (``old``): the module-wide resolution changes them (a helper that became
        mutating, a name bound anew that a dynamic statement reads)."""
        reads, written_by = self.reads, self.written_by
        old_reads, old_written = old.reads, old.written_by
        offset = stop - new_stop
        found = [
            index
            for index in range(first)
            if reads[index] != old_reads[index] or written_by[index] != old_written[index]
        ]
        found += [
            index
            for index in range(new_stop, len(reads))
            if reads[index] != old_reads[index + offset]
            or written_by[index] != old_written[index + offset]
        ]
        return found

    def kept_key_in(self, keys: set[str]) -> bool:
        """Whether a statement not among the candidates (before :meth:`changed`: each keeps
        its last key) has one of ``keys``: found from the last keys, not a key() per statement."""
        candidates = self.candidates
        assert candidates is not None
        previous = self.state.previous
        wanted = {identity for identity, remembered in previous.items() if remembered[0] in keys}
        if not wanted:
            return False
        found = [index for index, identity in enumerate(self.identity) if identity in wanted]
        return any(index not in candidates for index in found)

    def changed(self, unchanged: Callable[[str | None], bool]) -> set[int]:
        """The statements whose results are not cached (``unchanged``: whether those of a key
        are); then the keys are remembered for the next analysis."""
        count = len(self.identity)
        if self.candidates is None:
            changed = {i for i in range(count) if not unchanged(self.key(i))}
            self.state.previous = {
                identity: (key, self.reads[index], self.written_by[index], self.ranks(index))
                for index, identity in enumerate(self.identity)
                if (key := self.key(index)) is not None
            }
            return changed
        changed = {i for i in self.candidates if not unchanged(self.key(i))}
        previous = self.state.previous
        for identity in self.removed:
            previous.pop(identity, None)
        for index in self.candidates:
            key = self.key(index)
            assert key is not None
            previous[self.identity[index]] = (
                key,
                self.reads[index],
                self.written_by[index],
                self.ranks(index),
            )
        return changed

    def _affected(
        self,
        previous: dict[str, Remembered],
        looked_at: range | set[int],
        removed: set[str] | None,
    ) -> set[int]:
        """Statements whose key may differ from last time: new ones, ones whose reads or
        writes changed (a helper that became harmful changes its callers' writes), and every
        statement reading a name whose writers, or what they read, changed; removed statements
        count through the names they wrote. The others keep their previous key.
        (``looked_at``: the statements that can be new or changed; ``removed``: the identities
        of last time no longer here, None when not known without looking at all.)"""
        seeds: set[int] = set()
        names: set[str] = set()
        if removed is None:
            present = set(self.identity)
            removed = {identity for identity in previous if identity not in present}
        self.removed = removed
        for identity in removed:
            names |= previous[identity][2]
        for index in looked_at:
            before = previous.get(self.identity[index])
            if before is None:
                seeds.add(index)
                names |= self.written_by[index]
            elif (
                before[1] != self.reads[index]
                or before[2] != self.written_by[index]
                or before[3] != self.ranks(index)
            ):
                seeds.add(index)  # the readers of what it wrote, and of what it writes
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

    def key(self, owner: int) -> str | None:
        if owner < 0 or owner >= len(self.identity):
            return None
        if owner not in self._memo:
            before = self.state.previous.get(self.identity[owner])
            if owner not in self.affected and before is not None:
                self._memo[owner] = before[0]
                return before[0]
            # keys() first: the intersection is a set (typeshed says a frozenset the other way)
            read = sorted(self.writers.keys() & self.reads[owner])
            self._name_digests(read)
            digest = blake2b(digest_size=16)
            digest.update(self.identity[owner].encode())
            digest.update(repr(self.ranks(owner)).encode())
            for name in read:
                digest.update(self._digests[name])
            self._memo[owner] = digest.hexdigest()
        return self._memo[owner]

    def ranks(self, owner: int) -> tuple[int, ...]:
        """For each name statement ``owner`` reads that statements write (sorted), how many
        of its writers come before it: where a statement is among the statements it reads
        from is what its place means to its results (its identity holds no place)."""
        found = self._ranks.get(owner)
        if found is None:
            writers = self.writers
            found = self._ranks[owner] = tuple(
                bisect.bisect_left(writers[name], owner)
                for name in sorted(writers.keys() & self.reads[owner])
            )
        return found

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
        names, objects = sibling_non_mutating(text)
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
            digest.update(repr(self.ranks(statement)).encode())
        outside = sorted({s for m in members for s in self._reads_of(m)} - component)
        for successor in outside:
            digest.update(digests[successor])
        value = digest.digest()
        for member in members:
            digests[member] = value
