"""Who reads and writes what among a module's top-level statements (from their effects and the
module-wide resolution of what they may change): the tables the cache keys are made from."""

from __future__ import annotations

from evalsubmit.analysis.interp.effects import Effects
from evalsubmit.analysis.interp.mutation import Resolved
from evalsubmit.core.records import record


@record
class Graph:
    """Who reads and writes what, for one list of statement effects (kept while an edit
    leaves them equal: an edit inside a literal, say)."""

    effects: list[Effects]
    reads: list[frozenset[str]]
    written_by: list[frozenset[str]]
    """The names each statement can change, including through the functions it calls."""
    writers: dict[str, list[int]]
    readers: dict[str, list[int]]


def graph_of(found: list[Effects], resolved: Resolved) -> Graph:
    callee_writes = {
        name: statement.writes_when_called
        for statement in found
        if statement.writes_when_called
        for name in statement.writes
    }
    writers: dict[str, list[int]] = {}
    readers: dict[str, list[int]] = {}
    written_by: list[frozenset[str]] = []
    called = callee_writes.keys()
    # a global some function rebinds is forgotten after any call made at the top level
    rebound = frozenset[str]().union(*(statement.rebinds for statement in found))
    for index, statement in enumerate(found):
        written = resolved.writes[index]
        if callee_writes and not called.isdisjoint(statement.reads):
            written = written.union(*(callee_writes[n] for n in statement.reads & called))
        if rebound and statement.calls:
            written = written | rebound
        for name in written:
            writers.setdefault(name, []).append(index)
        for name in resolved.reads[index]:
            readers.setdefault(name, []).append(index)
        written_by.append(written)
    return Graph(found, resolved.reads, written_by, writers, readers)
