"""Who reads and writes what among a module's top-level statements (from their effects and the
module-wide resolution of what they may change): the tables the cache keys are made from."""

from __future__ import annotations

from evalsubmit.analysis.interp.effects import Effects
from evalsubmit.analysis.interp.mutation import Resolved
from evalsubmit.analysis.interp.overrides import SUBCLASSED
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
    # a generic instance of a class depends on the module's subclasses of it
    subclassed = frozenset[str]().union(*(statement.bases for statement in found))
    all_reads: list[frozenset[str]] = []
    for index, statement in enumerate(found):
        written = resolved.writes[index]
        read = resolved.reads[index]
        if callee_writes and not called.isdisjoint(statement.reads):
            written = written.union(*(callee_writes[n] for n in statement.reads & called))
        if rebound and statement.calls:
            written = written | rebound
        if subclassed:
            written = written | {SUBCLASSED + base for base in statement.bases}
            named = (statement.reads | statement.classes) & subclassed
            read = read | {SUBCLASSED + name for name in named} if named else read
        for name in written:
            writers.setdefault(name, []).append(index)
        for name in read:
            readers.setdefault(name, []).append(index)
        written_by.append(written)
        all_reads.append(read)
    return Graph(found, all_reads, written_by, writers, readers)
