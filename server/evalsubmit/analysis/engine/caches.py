"""The caches that make re-analysing one document after an edit cost what the edit touched.

Two caches survive between analyses of the same document:

* parsed top-level statements, by text (``ChunkCache`` of :mod:`evalsubmit.analysis.source`):
  an edit re-parses only the statements it touched;
* results of each top-level statement and of the function bodies it defines, by a key made of
  everything they can depend on: the statement's own text and position, every statement that
  writes a name it reads (transitively; :mod:`..interp.mutation` says what a statement may
  change without naming it), and the contents of the sibling modules the document imports from
  (with the module stores' answers: which other files may store a module attribute read).

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

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from itertools import repeat
from operator import is_
from pathlib import Path

from evalsubmit.analysis.engine.key_state import KeyState, Remembered
from evalsubmit.analysis.engine.keys import Keyer
from evalsubmit.analysis.engine.line_map import line_map
from evalsubmit.analysis.engine.results import GroupResult
from evalsubmit.analysis.engine.shift import Shifter
from evalsubmit.analysis.interp.facts import FactGroup
from evalsubmit.analysis.interp.grouping import (
    Answer,
    Grouping,
    Question,
    asked,
    reads_the_same,
)
from evalsubmit.analysis.interp.modules import ModuleResolver
from evalsubmit.analysis.source.chunks import ChunkCache
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.workspace.project import Project


@dataclass(slots=True)
class Slots:
    """The results of the last analysis by top-level statement, in the order of its groups
    (every statement's own, then the function bodies of each, by statement): an analysis that
    walked a few statements replaces theirs and keeps the others where they are."""

    keys: list[str | None]
    tops: list[GroupResult]
    bodies: list[GroupResult | None]

    def ordered(self) -> list[GroupResult]:
        return [*self.tops, *filter(None, self.bodies)]  # (a GroupResult is never false)


@dataclass(slots=True)
class AnalysisCaches:
    chunks: ChunkCache = field(default_factory=ChunkCache)
    groups: dict[str, GroupResult] = field(default_factory=dict)
    texts: dict[Path, str] = field(default_factory=dict)
    """The sibling modules the last analysis read, each with the digest of the text it read
    (the resolver notes them as it reads). When one of them now reads differently, or the
    installed packages changed (``environment``), no cached result stands."""
    environment: str | None = None
    questions: dict[Question, Answer] = field(default_factory=dict)
    """What the module stores answered (which other files may store a module attribute read)
    since the cached results were last all dropped: asked again before they are reused, each
    must get the same answer (a store added in a file that stored nothing before is in no
    text read). Kept for every analysis since, not only the last: a statement not walked
    holds results that rest on an earlier analysis's answers."""
    keys: KeyState = field(default_factory=KeyState)
    """The statement tables and keys of the last analysis (:mod:`.keys`)."""
    bare: set[str] = field(default_factory=set)
    """Keys of top-level statements whose last walk deferred no function body."""
    slots: Slots | None = None
    """The last analysis's results in place (None: not kept, the next one places them all)."""
    walked: int = 0
    """Groups of function bodies walked (not taken from the cache) by the last analysis."""
    reused: int = 0
    skipped: int = 0
    """Top-level statements the last analysis did not walk at all."""
    looked_at: int = 0
    """Top-level statements whose keys the last analysis looked at again (the others kept
    theirs without a look)."""
    in_place: bool = False
    """The last analysis looked only at what its edit touched, and kept the other
    statements' keys and results in place (``Grouping.sparse``)."""
    _keyer: Keyer | None = None
    _spliced_out: set[str] = field(default_factory=set)
    """Keys of the statements an edit removed from the slots (their results go unless
    another statement still has their key)."""
    _shifter: Shifter | None = None
    """The last shift, while it has previews and summaries to move (:meth:`settle`)."""
    _unkeyed: tuple[ParsedModule, Project | None, Path | None] | None = None
    """A first analysis's text, whose keys are made once its findings are out (:meth:`key`):
    nothing is cached yet, so no key is looked up before (making them was about a fifth of
    a first analysis's time to its findings on 5,000 lines)."""

    @property
    def previous(self) -> dict[str, Remembered]:
        """Each statement of the last analysis (by identity): its key, reads and writes."""
        return self.keys.previous

    def grouping(
        self, parsed: ParsedModule, project: Project | None, path: Path | None = None
    ) -> Grouping | None:
        """How the interpreter groups this text's facts for the cache (None: not cacheable)."""
        # an analysis that stopped before its own settle: its previews and summaries first
        self._settle_results()
        self.walked = self.reused = self.skipped = self.looked_at = 0
        self.in_place = False
        self._keyer = self._unkeyed = None
        grouping = self._grouping(parsed, project, path)
        # the nodes inside the statements walked are read from now on: at their lines
        self.chunks.settle(grouping.walk if grouping is not None and grouping.sparse else None)
        return grouping

    def _grouping(
        self, parsed: ParsedModule, project: Project | None, path: Path | None
    ) -> Grouping | None:
        if not parsed.chunks:
            self.keys.complete = False
            self.slots = None
            return None  # parsed whole: positions of statements are not tracked, so no cache
        if not self._dependencies_unchanged(project):
            self.groups = {}
            self.questions = {}
            self.keys.previous = {}
            self.keys.resolved = None
            self.keys.complete = False
            self.slots = None
        if not self.groups and not self.keys.previous and self.slots is None:
            self._unkeyed = (parsed, project, path)
            return Grouping(key=_provisional, known=())
        dropped = self._shift(parsed, path) if self.groups else set()
        keyer = self._keyer = Keyer(parsed, self.keys, project, path)
        count = len(parsed.tree.body)
        if dropped and keyer.candidates is not None and keyer.kept_key_in(dropped):
            # a statement not looked at whose results were dropped (they pointed at a line the
            # edit changed) must be found: every statement is
            keyer.candidates = None
        changed = keyer.changed(self._unchanged)
        self.looked_at = len(keyer.candidates) if keyer.candidates is not None else count
        walk = keyer.needed(changed) if len(changed) < count else None
        if walk is not None:
            self.skipped = count - len(walk)
        # Only the statements walked have groups when the others' results are in place.
        sparse = walk is not None and keyer.candidates is not None and self.slots is not None
        if sparse and self.slots is not None and len(self.slots.keys) != count:
            self._splice(self.slots, *keyer.edited)
        self.in_place = sparse
        return Grouping(key=keyer.key, known=self.groups.keys(), walk=walk, sparse=sparse)

    def _splice(self, slots: Slots, first: int, stop: int, new_stop: int) -> None:
        """Statements were added or removed: the slots of the last analysis's statements
        ``first:stop`` make room for this one's ``first:new_stop`` (every one of which is
        looked at, so :meth:`_replace` fills them)."""
        room = new_stop - first
        self._spliced_out = {key for key in slots.keys[first:stop] if key is not None}
        slots.keys[first:stop] = [None] * room
        slots.tops[first:stop] = [_NOT_PLACED] * room
        slots.bodies[first:stop] = [None] * room

    def _shift(self, parsed: ParsedModule, path: Path | None) -> set[str]:
        """Move the cached results with their code when lines were added or removed above it
        (they are kept by text, not place). One that points at a line the edit changed is
        dropped (the keys of those are returned): its statement is walked again."""
        old = self.keys.chunks
        lines = line_map(old, parsed.chunks, self.keys.source, parsed.lines, parsed.kept_from(old))
        if lines is None:
            return set()
        groups = self.groups
        slots = self.slots
        if slots is not None:
            cached = set(map(id, groups.values()))
            held = [*slots.tops, *filter(None, slots.bodies)]
            if not all(map(cached.__contains__, map(id, held))):  # one not cached: not moved
                self.slots = None
                self.keys.complete = False
        shifter = Shifter(lines, path)
        # Results are moved in place (a dropped one stays in its slot, unmoved, until its
        # statement's walk replaces it).
        dropped: set[str] = set()
        for key in shifter.move_all(groups.items()):
            del groups[key]
            dropped.add(key.rpartition(":")[0])
        self._shifter = shifter if shifter.pending else None
        return dropped

    def _dependencies_unchanged(self, project: Project | None) -> bool:
        environment = project.environment_stamp() if project is not None else None
        if environment != self.environment:
            self.environment = environment
            return False
        if project is None:
            return not self.texts
        return reads_the_same(project.read, self.texts.items()) and (
            not self.questions or ModuleResolver.of(project).answers_the_same(self.questions)
        )

    def remember(
        self,
        read: dict[Path, str],
        dependencies: frozenset[Path],
        questions: dict[Question, Answer],
    ) -> None:
        """After an analysis: the texts it read (``read``, noted by the walk; the modules of
        statements not walked were read, unchanged, by an earlier analysis), and the module
        stores' answers it got (one that differs from an earlier answer, a file changed
        during the analysis, is None: the next analysis drops every cached result)."""
        self.texts = {path: read.get(path, self.texts.get(path, "")) for path in dependencies}
        for question, answer in questions.items():
            asked(self.questions, question, answer)

    def _unchanged(self, key: str | None) -> bool:
        """Results of the statement with this key (its own and its bodies') are cached."""
        if key is None or f"{key}:top" not in self.groups:
            return False
        return f"{key}:bodies" in self.groups or key in self.bare

    def place(
        self, grouping: Grouping | None, done: list[tuple[FactGroup, GroupResult]], count: int
    ) -> list[GroupResult]:
        """After the groups of an analysis of ``count`` statements got their results
        (``done``): every group's result, in order, and only the results still reachable
        kept (bounded memory for a long editing session)."""
        keyer = self._keyer
        if grouping is None or (keyer is None and self._unkeyed is None):
            self._keep(())  # not cacheable: nothing stays
            self.slots = None
            return [result for _, result in done]
        if (
            keyer is not None
            and grouping.sparse
            and self.slots is not None
            and keyer.candidates is not None
        ):
            self._replace(self.slots, keyer.candidates, done, keyer.key)
        else:
            # a first analysis's stand-in keys until :meth:`key` makes the real ones
            key = keyer.key if keyer is not None else _provisional
            keys = [key(owner) for owner in range(count)]
            slots = Slots(keys, [_NOT_PLACED] * count, [None] * count)
            for group, result in done:
                _put(slots, group, result)
            self._keep(group.key for group, _ in done)
            placed = all(top is not _NOT_PLACED for top in slots.tops)
            self.slots = slots if placed else None
        ordered = self.slots.ordered() if self.slots is not None else [r for _, r in done]
        self.reused = len(ordered) - self.walked
        return ordered

    def settle(self) -> None:
        """Move what the last analysis left to move for after its findings: the cached
        previews and summaries. (The nodes inside the statements it did not walk move when
        read: :meth:`ChunkCache.settle`.)"""
        self._settle_results()

    def _settle_results(self) -> None:
        if self._shifter is not None:
            self._shifter.settle()
            self._shifter = None

    def key(self) -> None:
        """Give a first analysis's results their keys (made now, after its findings were
        handed on), as if they had been made before its walk."""
        if self._unkeyed is None:
            return
        parsed, project, path = self._unkeyed
        self._unkeyed = None
        keyer = self._keyer = Keyer(parsed, self.keys, project, path)
        keyer.changed(lambda key: False)  # every statement is new: remember them all
        real = {_provisional(owner): keyer.key(owner) for owner in range(len(parsed.tree.body))}

        def rekeyed(key: str) -> str | None:
            base, _, part = key.rpartition(":")
            new = real.get(base)
            return f"{new}:{part}" if new is not None else None

        self.groups = {new: v for k, v in self.groups.items() if (new := rekeyed(k)) is not None}
        self.bare = {new for key in self.bare if (new := real.get(key)) is not None}
        if self.slots is not None:
            self.slots.keys = [
                real.get(key) if key is not None else None for key in self.slots.keys
            ]

    def _replace(
        self,
        slots: Slots,
        candidates: Iterable[int],
        done: list[tuple[FactGroup, GroupResult]],
        key: Callable[[int], str | None],
    ) -> None:
        """Put in place the results of the statements walked (``done``) and of the others
        whose key may have changed (``candidates``), and forget the results of the keys no
        statement has any more. A statement may have moved to another index (statements of
        chunks between two edits, when one moved a statement into the other); its key, made
        of its text and place, says which results are its own."""
        walked = {group.owner for group, _ in done}
        looked_at = walked.union(candidates)
        before = {slots.keys[owner] for owner in looked_at} | self._spliced_out
        self._spliced_out = set()
        for owner in looked_at:
            new = key(owner)
            if owner in walked:
                slots.bodies[owner] = None
            elif new != slots.keys[owner]:  # its results are cached under its (new) key
                slots.tops[owner] = self.groups[f"{new}:top"]
                slots.bodies[owner] = self.groups.get(f"{new}:bodies")
            slots.keys[owner] = new
        for group, result in done:
            _put(slots, group, result)
        if any(map(is_, slots.tops, repeat(_NOT_PLACED))):  # (C speed: a slot per statement)
            raise AssertionError("a statement added by the edit got no results")
        after = {slots.keys[owner] for owner in looked_at}
        for gone in before - after:
            self.groups.pop(f"{gone}:top", None)
            self.groups.pop(f"{gone}:bodies", None)
            self.bare.discard(gone)
        for owner in looked_at:
            if (new := slots.keys[owner]) is not None:
                if slots.bodies[owner] is None:
                    self.bare.add(new)
                else:
                    self.bare.discard(new)

    def _keep(self, keys: Iterable[str | None]) -> None:
        """Forget results no longer reachable."""
        live = {key for key in keys if key is not None}
        self.groups = {k: v for k, v in self.groups.items() if k in live}
        tops = {k.removesuffix(":top") for k in live if k.endswith(":top")}
        self.bare = {k for k in tops if f"{k}:bodies" not in live}

    def completed(self) -> None:
        """Every group of the analysis just done has its results cached (no rule failed on
        one): the next analysis may skip looking at what its edit cannot affect."""
        self.keys.complete = self.slots is not None


def _put(slots: Slots, group: FactGroup, result: GroupResult) -> None:
    if group.part == "top":
        slots.tops[group.owner] = result
    else:
        slots.bodies[group.owner] = result


_NOT_PLACED = GroupResult((), (), (), ())
"""The slot of a statement an edit added, until its results are put there."""


def _provisional(owner: int) -> str:
    """A first analysis's stand-in key for statement ``owner`` (until its real one is made)."""
    return f"@{owner}"
