"""What the keys of one analysis of a document leave for the next one (:mod:`.keys`): the
per-statement tables, kept between analyses so that only the statements an edit touched are
looked at again."""

from __future__ import annotations

import ast
import bisect
from dataclasses import dataclass, field

from evalsubmit.analysis.engine.graph import Graph
from evalsubmit.analysis.interp.effects import Effects, effects
from evalsubmit.analysis.interp.mutation import NonMutatingMemo, non_mutating_names
from evalsubmit.analysis.source.chunks import Chunk
from evalsubmit.analysis.source.parse import ParsedModule

Remembered = tuple[str, frozenset[str], frozenset[str], tuple[int, ...]]
"""A statement's key, the names it reads, the names it writes, and for each name it reads that
a statement writes (sorted), how many of its writers come before it."""


@dataclass(slots=True)
class KeyState:
    """What the keys of one analysis leave for the next one of the same document."""

    chunks: tuple[Chunk, ...] = ()
    """The chunks the tables below were made for."""
    source: tuple[str, ...] = ()
    """The lines of their text (to pair the lines of chunks whose code did not change)."""
    firsts: list[int] = field(default_factory=list)
    """The index of each chunk's first top-level statement (to find the statements of a run
    of chunks)."""
    identity: list[str] = field(default_factory=list)
    """Each statement's text, not its place: ``digest+line in chunk:column``, and ``#n`` for
    the n-th repeat of the same text (the statement moves with its text, so results cached
    under it stand wherever it goes; what its place changes is what it reads from, and keys
    hold that: :meth:`.keys.Keyer.ranks`)."""
    bases: list[str] = field(default_factory=list)
    """``identity`` without the ``#n`` of repeats."""
    effects: list[Effects] = field(default_factory=list)
    by_text: dict[str, Effects] = field(default_factory=dict)
    """What each statement text reads and writes, by chunk digest and position in the chunk
    (statements of chunks that moved find theirs here)."""
    resolved: Graph | None = None
    """The module-wide reads and writes, for the effects they came from."""
    non_mutating: NonMutatingMemo = field(default_factory=NonMutatingMemo)
    """What is non-mutating in the module, and what that was decided from (kept while it holds)."""
    previous: dict[str, Remembered] = field(default_factory=dict)
    """Each statement of the last analysis (by identity): its key, reads and writes."""
    complete: bool = False
    """Every statement of the last analysis has its results cached under its key in
    ``previous`` (set by the caches once they hold them): then a statement the edit cannot
    affect needs no look at all."""


def statements_before(state: KeyState, chunk: int) -> int:
    """How many statements of the last tables come before chunk ``chunk`` of their chunks."""
    if chunk >= len(state.chunks):
        return len(state.identity)
    return state.firsts[chunk]


def text_keys(parsed: ParsedModule) -> list[str]:
    """Each statement's text key: ``digest+line in chunk:column`` (its identity but for
    repeats)."""
    starts = [chunk.start for chunk in parsed.chunks]
    found = []
    for statement in parsed.tree.body:
        chunk = parsed.chunks[bisect.bisect_right(starts, statement.lineno) - 1]
        found.append(f"{chunk.digest}+{statement.lineno - chunk.start}:{statement.col_offset}")
    return found


_SIBLING_NON_MUTATING: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
"""What :func:`sibling_non_mutating` found, by module text (kept across analyses and
documents: the same sibling is imported by every edit)."""


def sibling_non_mutating(text: str) -> tuple[frozenset[str], frozenset[str]]:
    """The callables and objects a sibling module's text defines that change nothing they are
    given (:func:`..interp.mutation.non_mutating_names`), memoised by text."""
    found = _SIBLING_NON_MUTATING.get(text)
    if found is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return frozenset(), frozenset()
        found = non_mutating_names([effects(statement) for statement in tree.body])
        if len(_SIBLING_NON_MUTATING) > 256:
            _SIBLING_NON_MUTATING.clear()
        _SIBLING_NON_MUTATING[text] = found
    return found
