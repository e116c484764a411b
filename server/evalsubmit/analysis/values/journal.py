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

import functools
import itertools
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from evalsubmit.analysis.values.domain import DictValue, Instance, SeqValue

_local = threading.local()

Journal = dict[int, tuple[Any, tuple[Any, ...]]]

_changes = itertools.count()
_epoch = next(_changes)
"""A number that differs after any value was changed in place (or restored): what is computed
from values at one epoch holds for as long as the epoch stays the same."""


A = TypeVar("A")
B = TypeVar("B")
R = TypeVar("R")
_SHARED_SIZE = 256


_memos: list[threading.local] = []
"""The per-thread answers of every ``shared_while_unchanged`` function."""


def forget_shared() -> None:
    """Drop this thread's shared answers; called as an analysis starts. An answer holds its
    arguments, and through them the values, origins and trees of the module they came from:
    kept across analyses, they would keep a few hundred closed documents alive per thread."""
    for memo in _memos:
        memo.__dict__.pop("entries", None)


def shared_while_unchanged(function: Callable[[A, B], R]) -> Callable[[A, B], R]:
    """``function(a, b)`` (its arguments compared by identity) computed once and shared,
    read-only, by everyone who asks while no value changes in place (the epoch): per thread,
    the last few hundred answers of the present analysis (:func:`forget_shared`)."""
    memo = threading.local()
    _memos.append(memo)

    @functools.wraps(function)
    def shared(first: A, second: B) -> R:
        entries: dict[tuple[int, int], tuple[int, A, B, R]] = memo.__dict__.setdefault(
            "entries", {}
        )
        key = (id(first), id(second))
        now = _epoch
        entry = entries.get(key)
        # an entry holds its arguments, so their ids cannot be reused while it is kept
        if entry is not None and entry[0] == now and entry[1] is first and entry[2] is second:
            return entry[3]
        result = function(first, second)
        if len(entries) >= _SHARED_SIZE:
            entries.clear()
        entries[key] = (now, first, second, result)
        return result

    return shared


def _changed() -> None:
    global _epoch
    _epoch = next(_changes)  # next() on a count is atomic: no two changes share a number


def touch(value: object) -> None:
    """``value`` is about to change: remember how it is, for each sealed walk under way."""
    _changed()
    stack: list[Journal] | None = getattr(_local, "stack", None)
    if not stack:
        return
    for journal in stack:
        if id(value) not in journal:
            journal[id(value)] = (value, _state(value))


@contextmanager
def sealed() -> Iterator[None]:
    stack: list[Journal] = _local.__dict__.setdefault("stack", [])
    journal: Journal = {}
    stack.append(journal)
    try:
        yield
    finally:
        stack.pop()
        if journal:
            _changed()
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
