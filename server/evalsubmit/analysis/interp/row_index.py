"""Indexes of rows by name (name -> the rows holding it, ascending), updated after an edit of
a run of rows instead of made again: the module-wide resolution's statements binding each
name, and the key graph's writers and readers of each (:mod:`..engine.graph`)."""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

Edited = tuple[int, int, int]
"""``(first, stop, new_stop)``: the last rows' ``first:stop`` are the new ones'
``first:new_stop``; the others are the same rows (those after it moved by
``new_stop - stop``)."""


def reindexed(
    index: dict[str, list[int]],
    removed: Iterable[frozenset[str]],
    added: Sequence[frozenset[str]],
    first: int,
    stop: int,
    moved: int,
) -> dict[str, list[int]]:
    """``index`` (name -> statements, ascending) after statements ``first:stop``, whose rows
    are ``removed``, became ``first:first + len(added)`` with rows ``added``, and the later
    ones moved by ``moved``. The lists of ``index`` are left as they are (the last ones)."""
    rows: dict[str, list[int]] = {}
    for offset, row_names in enumerate(added):
        for name in row_names:
            rows.setdefault(name, []).append(first + offset)
    names = set(rows)
    names.update(*removed)
    if moved:
        names.update(name for name, at in index.items() if at[-1] >= stop)
    found = dict(index)
    for name in names:
        at = index.get(name, [])
        tail = at[bisect.bisect_left(at, stop) :]
        if moved:
            tail = [statement + moved for statement in tail]
        row = [*at[: bisect.bisect_left(at, first)], *rows.get(name, ()), *tail]
        if row:
            found[name] = row
        else:
            found.pop(name, None)
    return found
