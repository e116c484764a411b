"""The names asked about and their binding statements, updated edit after edit, are what
counting the whole module again gives."""

from __future__ import annotations

import random
from dataclasses import dataclass

from evalsubmit.analysis.interp.asked_names import AskedNames, asked_names

NAMES = "abcdefg"


@dataclass(frozen=True)
class Statement:
    """What :func:`asked_names` reads of a statement's effects."""

    asked: frozenset[str]
    binds: frozenset[str]


def statement(rng: random.Random) -> Statement:
    return Statement(
        frozenset(rng.sample(NAMES, rng.randrange(3))),
        frozenset(rng.sample(NAMES, rng.randrange(2))),
    )


def binders_of(found: list[Statement]) -> dict[str, list[int]]:
    binders: dict[str, list[int]] = {}
    for index, one in enumerate(found):
        for name in one.binds:
            binders.setdefault(name, []).append(index)
    return binders


def test_updated_after_each_edit_as_counted_anew() -> None:
    rng = random.Random(26)
    old = [statement(rng) for _ in range(8)]
    last: AskedNames = asked_names(old, binders_of(old))  # type: ignore[arg-type]
    answers = set()
    for _ in range(500):
        first = rng.randrange(len(old) + 1)
        stop = rng.randrange(first, min(len(old), first + 3) + 1)
        added = [statement(rng) for _ in range(rng.randrange(3))]
        # outside the edit: equal statements, not always the same objects
        found = [Statement(s.asked, s.binds) if rng.random() < 0.3 else s for s in old]
        found[first:stop] = added
        binders = binders_of(found)
        edit = (first, stop, first + len(added))
        updated = asked_names(found, binders, last, (old, edit))  # type: ignore[arg-type]
        fresh = asked_names(found, binders)  # type: ignore[arg-type]
        assert updated.counts == fresh.counts
        assert updated.asked == fresh.asked
        assert updated.bound == fresh.bound
        answers.add(len(fresh.bound))
        old, last = found, updated
    assert len(answers) > 3  # names came and went


def test_made_anew_when_the_last_ones_are_of_other_statements() -> None:
    rng = random.Random(7)
    one = [statement(rng) for _ in range(6)]
    other = [statement(rng) for _ in range(6)]
    last: AskedNames = asked_names(one, binders_of(one))  # type: ignore[arg-type]
    found = [*other, Statement(frozenset("a"), frozenset("a"))]
    updated = asked_names(found, binders_of(found), last, (other, (6, 6, 7)))  # type: ignore[arg-type]
    fresh = asked_names(found, binders_of(found))  # type: ignore[arg-type]
    assert (updated.counts, updated.bound) == (fresh.counts, fresh.bound)
