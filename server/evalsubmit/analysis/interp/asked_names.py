"""The names a module's statements ask a non-mutating verdict about (``Effects.asked``), and the
statements binding each: part of what the verdict is reached from (:mod:`.mutation`'s basis).

After an edit of a run of statements they are updated from the last ones, the rest of the
module being the same statements: per name, how many statements ask about it, and for a name
no edited statement binds and whose being asked did not change, the statements binding it are
the same ones. The result is what counting the whole module again gives
(tests/unit/test_asked_names.py).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import chain
from operator import attrgetter

from evalsubmit.analysis.interp.effects import Effects
from evalsubmit.analysis.interp.row_index import Edited

_ASKED = attrgetter("asked")


@dataclass(slots=True)
class AskedNames:
    """The names asked about in the statements ``of``, and the statements binding each."""

    of: Sequence[Effects]
    counts: dict[str, int]
    """How many statements ask about each name (only names some statement asks about)."""
    bound: dict[str, tuple[Effects, ...]]
    """For each name asked about that a statement binds, the statements binding it, in order."""

    @property
    def asked(self) -> frozenset[str]:
        return frozenset(self.counts)


def asked_names(
    found: Sequence[Effects],
    binders: dict[str, list[int]],
    last: AskedNames | None = None,
    since: tuple[Sequence[Effects], Edited] | None = None,
) -> AskedNames:
    """The names ``found`` asks about and their binding statements (``binders``: the indexes
    of the statements binding each name). ``last`` is updated when it was made of the effects
    ``since`` names and ``found`` equals them outside the edit (the caller checked)."""
    at = found.__getitem__
    if last is None or since is None or last.of is not since[0]:
        counts = dict(Counter(chain.from_iterable(map(_ASKED, found))))
        bound = {name: tuple(map(at, binders[name])) for name in counts.keys() & binders.keys()}
        return AskedNames(found, counts, bound)
    old, (first, stop, new_stop) = since
    removed, added = old[first:stop], found[first:new_stop]
    counts = dict(last.counts)
    touched: set[str] = set()
    for statement in removed:
        touched |= statement.binds
        for name in statement.asked:
            left = counts[name] - 1
            if left:
                counts[name] = left
            else:
                del counts[name]
                touched.add(name)  # no longer asked about
    for statement in added:
        touched |= statement.binds
        for name in statement.asked:
            count = counts.get(name, 0)
            if not count:
                touched.add(name)  # asked about anew
            counts[name] = count + 1
    bound = dict(last.bound)
    for name in touched:
        bound.pop(name, None)
        if name in counts and name in binders:
            bound[name] = tuple(map(at, binders[name]))
    return AskedNames(found, counts, bound)
