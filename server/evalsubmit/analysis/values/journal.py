"""Undoing what a walk changed in values it did not create.

Containers and configs are changed in place (``d[k] = v``, ``lst.append(x)``, ``cfg.x = v``),
as Python does. Two walks must not see each other's changes: the walk of one function body
after the top level (it is not a call: nothing says it runs, nor before what) must not change
what another body sees, and the analysis of one module must not change the values of a module
it imports, which are cached and shared with every other module importing it. Each change
``touch``-es the value first; a ``sealed()`` walk restores every value touched inside it, as
it was when first touched, when it ends. A module's own top level is walked ``unsealed()``
(what it builds is its own, cached with it).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from evalsubmit.analysis.values.domain import DictValue, Instance, SeqValue
from evalsubmit.analysis.values.join import joined_entries, joined_keywords

_local = threading.local()

UndoLog = dict[int, tuple[Any, tuple[Any, ...]]]
"""What a sealed walk restores: each value it touched (by id), as it was when first touched."""


def touch(value: object) -> None:
    """``value`` is about to change: remember how it is, for each sealed walk under way."""
    stack: list[UndoLog] | None = getattr(_local, "stack", None)
    if not stack:
        return
    for journal in stack:
        if id(value) not in journal:
            journal[id(value)] = (value, _state(value))


@contextmanager
def sealed() -> Iterator[None]:
    stack: list[UndoLog] = _local.__dict__.setdefault("stack", [])
    journal: UndoLog = {}
    stack.append(journal)
    try:
        yield
    finally:
        stack.pop()
        for value, state in journal.values():
            _restore(value, state)


@contextmanager
def unsealed() -> Iterator[None]:
    """Changes made here are not undone by the sealed walks around (a module imported while
    walking another: what its top level builds is its own)."""
    saved = getattr(_local, "stack", None)
    _local.stack = []
    try:
        yield
    finally:
        _local.stack = saved


def _state(value: object) -> tuple[Any, ...]:
    if isinstance(value, DictValue):
        return (list(value.entries), value.complete)
    if isinstance(value, SeqValue):
        return (list(value.items), list(value.item_origins), value.complete)
    if isinstance(value, Instance):
        return (dict(value.args.keywords), dict(value.args.keyword_origins))
    return ()


def _restore(value: object, state: tuple[Any, ...]) -> None:
    if isinstance(value, DictValue):
        value.entries, value.complete = state
    elif isinstance(value, SeqValue):
        value.items, value.item_origins, value.complete = state
    elif isinstance(value, Instance):
        value.args.keywords.clear()
        value.args.keywords.update(state[0])
        value.args.keyword_origins.clear()
        value.args.keyword_origins.update(state[1])


Ends = dict[int, tuple[Any, tuple[Any, ...], tuple[Any, ...]]]
"""By value id: the value, its state before a branch, and its state where the branch ended."""


@contextmanager
def forked() -> Iterator[Ends]:
    """One branch of a fork: like :func:`sealed`, what it changes is undone when it ends (the
    next branch starts from the same values), and the state each value was left in is handed
    back, for :func:`join_forks`."""
    stack: list[UndoLog] = _local.__dict__.setdefault("stack", [])
    journal: UndoLog = {}
    ends: Ends = {}
    stack.append(journal)
    try:
        yield ends
    finally:
        stack.pop()
        for key, (value, state) in journal.items():
            ends[key] = (value, state, _state(value))
            _restore(value, state)


def join_forks(paths: list[Ends]) -> None:
    """Values as the paths that go on left them: a value changed the same way on every path
    keeps that change; one changed differently keeps only what every path agrees on, and no
    longer claims to be complete (it is one of the versions, never all of them merged)."""
    first: dict[int, tuple[Any, tuple[Any, ...]]] = {}
    for ends in paths:
        for key, (value, before, _) in ends.items():
            first.setdefault(key, (value, before))
    for key, (value, before) in first.items():
        states = [ends[key][2] if key in ends else before for ends in paths]
        touch(value)
        if all(_same_state(states[0], other) for other in states[1:]):
            _restore(value, states[0])
        else:
            _restore(value, _agreed(value, states))


def _same_state(first: tuple[Any, ...], second: tuple[Any, ...]) -> bool:
    if len(first) != len(second):
        return False
    for a, b in zip(first, second, strict=True):
        if isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b) or any(x is not y for x, y in zip(a, b, strict=True)):
                return False
        elif isinstance(a, dict) and isinstance(b, dict):
            if a.keys() != b.keys() or any(a[k] is not b[k] for k in a):
                return False
        elif a is not b and a != b:
            return False
    return True


def _agreed(value: object, states: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """The part of ``states`` that every path agrees on."""
    if isinstance(value, DictValue):
        return (joined_entries([state[0] for state in states]), False)
    if isinstance(value, SeqValue):
        return ([], [], False)
    if isinstance(value, Instance):
        return joined_keywords([(state[0], state[1]) for state in states])
    return states[0]
