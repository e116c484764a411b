"""Who reads and writes what among a module's top-level statements (from their effects and the
module-wide resolution of what they may change): the tables the cache keys are made from.

After an edit that leaves the rest of the module's resolution as it was (the usual one: a
statement typed, a line cut), the last graph is updated rather than made again: the edited
statements' rows are made anew, and the index of every later statement moves by the number of
statements the edit added or removed."""

from __future__ import annotations

import bisect

from evalsubmit.analysis.interp.effects import Effects
from evalsubmit.analysis.interp.mutation import Resolved
from evalsubmit.analysis.interp.overrides import SUBCLASSED
from evalsubmit.analysis.interp.row_index import Edited, reindexed
from evalsubmit.core.records import record


@record
class Graph:
    """Who reads and writes what, for one list of statement effects (kept while an edit
    leaves them equal: an edit inside a literal, say)."""

    effects: list[Effects]
    reads: list[frozenset[str]]
    """The names each statement reads, including the pseudo-names of the classes it names
    (:data:`.overrides.SUBCLASSED`)."""
    written_by: list[frozenset[str]]
    """The names each statement can change, including through the functions it calls."""
    writers: dict[str, list[int]]
    readers: dict[str, list[int]]
    resolved: Resolved
    """What it was made from."""
    callee_writes: dict[str, frozenset[str]]
    """For each top-level function that changes module-level names when called: those."""
    rebound: frozenset[str]
    """The globals some function of the module rebinds through ``global``: every statement
    that calls writes them (after a call made at the top level they are unknown)."""
    subclassed: frozenset[str]
    """The names the module's class statements spell their bases with: a class statement
    writes ``<subclassed>Base``, a statement naming a class reads it (what a generic instance
    of a class holds depends on the module's subclasses of it)."""
    updated: bool = False
    """Made from the last graph by :func:`graph_of` with an edit, and every statement outside
    the edit has the same rows as there."""


def graph_of(
    found: list[Effects],
    resolved: Resolved,
    last: Graph | None = None,
    edited: Edited | None = None,
) -> Graph:
    """The graph of ``found`` (``last``: the graph of the effects before the edit ``edited``,
    updated instead of made again when the statements it left alone resolve the same)."""
    carried = _module_wide_carried(found, last, edited)
    if carried is not None:
        callee_writes, rebound, subclassed = carried
    else:
        callee_writes = _callee_writes(found)
        rebound = frozenset[str]().union(*(statement.rebinds for statement in found))
        subclassed = frozenset[str]().union(*(statement.bases for statement in found))
    if (
        last is not None
        and edited is not None
        and rebound == last.rebound
        and subclassed == last.subclassed
    ):  # (else a row outside the edit may change: the graph is made again)
        updated = _updated(found, resolved, callee_writes, last, edited)
        if updated is not None:
            return updated
    writers: dict[str, list[int]] = {}
    readers: dict[str, list[int]] = {}
    written_by: list[frozenset[str]] = []
    reads: list[frozenset[str]] = []
    for index, statement in enumerate(found):
        written = _written(statement, resolved.writes[index], callee_writes, rebound, subclassed)
        read = _read(statement, resolved.reads[index], subclassed)
        for name in written:
            writers.setdefault(name, []).append(index)
        for name in read:
            readers.setdefault(name, []).append(index)
        written_by.append(written)
        reads.append(read)
    return Graph(
        found, reads, written_by, writers, readers, resolved, callee_writes, rebound, subclassed
    )


def _callee_writes(statements: list[Effects]) -> dict[str, frozenset[str]]:
    """Function name -> what calling it writes (the last statement binding the name wins)."""
    return dict(_callee_writes_pairs(statements))


def _module_wide_carried(
    found: list[Effects], last: Graph | None, edited: Edited | None
) -> tuple[dict[str, frozenset[str]], frozenset[str], frozenset[str]] | None:
    """The last graph's ``callee_writes``, ``rebound`` and ``subclassed`` when they are what
    ``found`` makes: the statements outside the edit are the same, and the edited ones, before
    and after, make the same contributions to each (in the same order for ``callee_writes``,
    whose last binding of a name wins). None otherwise: they are made from every statement."""
    if last is None or edited is None:
        return None
    first, stop, new_stop = edited
    old = last.effects
    if (
        not 0 <= first <= min(stop, new_stop)
        or stop > len(old)
        or len(old) - stop != len(found) - new_stop
    ):
        return None
    was, now = old[first:stop], found[first:new_stop]
    if (
        frozenset[str]().union(*(s.rebinds for s in was))
        != frozenset[str]().union(*(s.rebinds for s in now))
        or frozenset[str]().union(*(s.bases for s in was))
        != frozenset[str]().union(*(s.bases for s in now))
        or _callee_writes_pairs(was) != _callee_writes_pairs(now)
        # (the same objects when unchanged: compared by identity, at C speed)
        or old[:first] != found[:first]
        or old[stop:] != found[new_stop:]
    ):
        return None
    return last.callee_writes, last.rebound, last.subclassed


def _callee_writes_pairs(statements: list[Effects]) -> list[tuple[str, frozenset[str]]]:
    return [
        (name, statement.writes_when_called)
        for statement in statements
        if statement.writes_when_called
        for name in statement.writes
    ]


def _written(
    statement: Effects,
    written: frozenset[str],
    callee_writes: dict[str, frozenset[str]],
    rebound: frozenset[str],
    subclassed: frozenset[str],
) -> frozenset[str]:
    """What a statement can change: what it writes, what the functions it calls do, the
    globals a call may have rebound, and what its classes' bases' generic instances hold."""
    called = callee_writes.keys()
    if callee_writes and not called.isdisjoint(statement.reads):
        written = written.union(*(callee_writes[n] for n in called & statement.reads))
    if rebound and statement.calls:
        written = written | rebound
    if subclassed and statement.bases:
        written = written | {SUBCLASSED + base for base in statement.bases}
    return written


def _read(statement: Effects, read: frozenset[str], subclassed: frozenset[str]) -> frozenset[str]:
    """What a statement reads, and the subclasses of the classes it names or defines."""
    named = (statement.reads | statement.classes) & subclassed if subclassed else None
    return read | {SUBCLASSED + name for name in named} if named else read


def _updated(
    found: list[Effects],
    resolved: Resolved,
    callee_writes: dict[str, frozenset[str]],
    last: Graph,
    edited: Edited,
) -> Graph | None:
    """``last`` with the edited statements' rows made anew and the later ones' indexes moved,
    when every statement outside the edit has the same effects and resolves the same as
    there (None otherwise)."""
    first, stop, new_stop = edited
    old, before = last.effects, last.resolved
    if (
        not 0 <= first <= min(stop, new_stop)
        or stop > len(old)
        or len(old) - stop != len(found) - new_stop
        or old[:first] != found[:first]
        or old[stop:] != found[new_stop:]
        # (the same lists when the resolution was spliced: compared by identity, at C speed)
        or before.reads[:first] != resolved.reads[:first]
        or before.reads[stop:] != resolved.reads[new_stop:]
        or before.writes[:first] != resolved.writes[:first]
        or before.writes[stop:] != resolved.writes[new_stop:]
    ):
        return None
    rebound, subclassed = last.rebound, last.subclassed
    middle = [
        _written(statement, resolved.writes[index], callee_writes, rebound, subclassed)
        for index, statement in enumerate(found[first:new_stop], first)
    ]
    middle_reads = [
        _read(statement, resolved.reads[index], subclassed)
        for index, statement in enumerate(found[first:new_stop], first)
    ]
    reads = [*last.reads[:first], *middle_reads, *last.reads[stop:]]
    written_by = [*last.written_by[:first], *middle, *last.written_by[stop:]]
    moved = new_stop - stop
    writers = reindexed(last.writers, last.written_by[first:stop], middle, first, stop, moved)
    readers = reindexed(last.readers, last.reads[first:stop], middle_reads, first, stop, moved)
    # A function the edit made (or unmade) write module-level names when called changes what
    # its callers outside the edit write: their rows are made anew too.
    called = last.callee_writes
    changed = {
        n for n in called.keys() | callee_writes.keys() if called.get(n) != callee_writes.get(n)
    }
    callers = {
        index if index < first else index + moved
        for name in changed
        for index in last.readers.get(name, ())
        if index < first or index >= stop
    }
    for index in callers:
        row = _written(found[index], resolved.writes[index], callee_writes, rebound, subclassed)
        if row != written_by[index]:
            _moved_row(writers, index, written_by[index], row)
            written_by[index] = row
    kept = not callers  # (else rows outside the edit may differ from the last graph's)
    return Graph(
        found,
        reads,
        written_by,
        writers,
        readers,
        resolved,
        callee_writes,
        rebound,
        subclassed,
        kept,
    )


def _moved_row(
    index: dict[str, list[int]], statement: int, old: frozenset[str], new: frozenset[str]
) -> None:
    """Statement ``statement``'s row of ``index`` went from ``old`` to ``new`` (the lists
    changed are copies: the last graph's are left as they are)."""
    for name in old - new:
        row = [at for at in index[name] if at != statement]
        if row:
            index[name] = row
        else:
            del index[name]
    for name in new - old:
        row = [*index.get(name, ())]
        bisect.insort(row, statement)
        index[name] = row
