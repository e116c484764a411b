"""Changing a value the interpreter holds, and undoing the change.

Containers and configs change as Python's do (``d[k] = v``, ``lst.append(x)``, ``cfg.x = v``),
and a change is seen through every name bound to the value. Their contents are immutable
(tuples; a config gets new arguments when a keyword is set), so the only way to change a value
is to rebind its contents through this module, which records the contents it replaces for the walks
that must undo it: nothing else can change a value, and so nothing can forget to record it.

Two walks must not see each other's changes: the walk of one function body after the top level
(it is not a call: nothing says it runs, nor before what) must not change what another body
sees, and the analysis of one module must not change the values of a module it imports, which
are cached and shared with every other module importing it. A ``sealed()`` walk restores every
value changed inside it, as it was before its first change, when it ends. A module's own top
level is walked ``unsealed()`` (what it builds is its own, cached with it). A value being built
(not yet bound or stored anywhere) is made whole by its constructor, not changed here.

What a fact records is kept as it is then (:func:`kept`): the rules read facts after the walks
have changed or undone the values, and must see what the code had built at that point.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from evalsubmit.analysis.values.domain import (
    CallArgs,
    DictValue,
    Entries,
    Entry,
    Instance,
    Origin,
    SeqValue,
    Value,
)
from evalsubmit.analysis.values.join import joined_entries, joined_keywords
from evalsubmit.sdk.names import GYM_CONFIG

_local = threading.local()

UndoLog = dict[int, tuple[Any, tuple[Any, ...]]]
"""What a sealed walk restores: each value it changed (by id), as it was before."""


def change_dict(
    value: DictValue, entries: tuple[Entry, ...] | None = None, complete: bool | None = None
) -> None:
    """Rebind a dict's entries and whether it lists them all (None: as they are)."""
    _record(value)
    if entries is not None:
        value.entries = entries
    if complete is not None:
        value.complete = complete


def store_entry(value: DictValue, key: Value, item: Value, origin: Origin | None) -> None:
    """``value[key] = item``."""
    entries = Entries(value.entries, value.complete)
    entries.put(key, item, origin)
    change_dict(value, entries.done(), entries.complete)


def change_seq(
    value: SeqValue,
    items: tuple[Value, ...],
    origins: tuple[Origin | None, ...],
    complete: bool | None = None,
) -> None:
    """Rebind a list's or set's items (and their origins)."""
    _record(value)
    value.items, value.item_origins = items, origins
    if complete is not None:
        value.complete = complete


def forget(value: DictValue | SeqValue) -> None:
    """What the container holds is no longer known."""
    if isinstance(value, DictValue):
        change_dict(value, (), False)
    else:  # its items stay listed, no longer claimed to be all
        change_seq(value, value.items, value.item_origins, False)


def store_keyword(instance: Instance, name: str, item: Value, origin: Origin | None) -> None:
    """Set a config's (or a parser's) keyword ``name`` after construction. The instance gets
    new arguments: the ones its construction was recorded with stay as they were written."""
    _record(instance)
    args = instance.args
    origins = args.keyword_origins if origin is None else {**args.keyword_origins, name: origin}
    instance.args = CallArgs(
        args.positional, {**args.keywords, name: item}, dict(origins), args.star_unknown
    )


def open_keywords(instance: Instance) -> None:
    """Keywords not known statically may have been set on ``instance``."""
    _record(instance)
    args = instance.args
    instance.args = CallArgs(
        args.positional, dict(args.keywords), dict(args.keyword_origins), star_unknown=True
    )


def _record(value: object) -> None:
    """``value`` is about to change: remember how it is, for each sealed walk under way."""
    stack: list[UndoLog] | None = getattr(_local, "stack", None)
    if not stack:
        return
    for undo in stack:
        if id(value) not in undo:
            undo[id(value)] = (value, _state(value))


def kept(args: CallArgs) -> CallArgs:
    """``args`` as they are now, out of reach of later changes: each dict, list and config
    they hold is copied, contents and all (what a constructor validated, what a ``submit()``
    sent). Other instances are shared: their arguments never change once they are built."""
    return _kept_args(args, {})


def kept_value(value: Value) -> Value:
    """``value`` as it is now, out of reach of later changes (as :func:`kept`; an instance
    with its arguments kept: a runner as it was built)."""
    copies: dict[int, Value] = {}
    if isinstance(value, Instance) and (value.args.keywords or value.args.positional):
        instance = copies[id(value)] = _copy(value)
        instance.args = _kept_args(value.args, copies)
        return instance
    return _kept(value, copies)


def _kept_args(args: CallArgs, copies: dict[int, Value]) -> CallArgs:
    return CallArgs(
        [_kept(value, copies) for value in args.positional],
        {name: _kept(value, copies) for name, value in args.keywords.items()},
        args.keyword_origins,  # never changed once the call is made (a store makes new ones)
        args.star_unknown,
    )


def _copy(instance: Instance) -> Instance:
    """A copy of ``instance`` (every field; ``dataclasses.replace`` is six times slower)."""
    return Instance(
        instance.ref,
        instance.args,
        instance.origin,
        instance.fields,
        instance.attributes,
        instance.maybe_none,
        instance.generic,
        instance.validated,
        instance.constructed,
    )


def unchanged_since(args: CallArgs, kept_args: CallArgs) -> bool:
    """Whether ``args`` hold what they held when ``kept_args`` were kept from them (False may
    also be said of contents changed and then changed back)."""
    if args is kept_args:
        return True
    if args.star_unknown != kept_args.star_unknown or args.positional != kept_args.positional:
        return False
    if args.keywords.keys() != kept_args.keywords.keys():
        return False
    seen: set[tuple[int, int]] = set()
    return all(
        _held_then(value, kept_args.keywords[name], seen) for name, value in args.keywords.items()
    )


def _held_then(value: Value, then: Value, seen: set[tuple[int, int]]) -> bool:
    """Whether ``value`` holds what ``then``, kept from it, holds."""
    if value is then or (id(value), id(then)) in seen:
        return True  # (a pair met again inside itself: the rest of it says)
    seen.add((id(value), id(then)))
    if isinstance(value, DictValue) and isinstance(then, DictValue):
        if value.entries is then.entries:
            return value.complete == then.complete
        return (
            value.complete == then.complete
            and len(value.entries) == len(then.entries)
            and all(
                now.key is before.key
                and now.origin is before.origin
                and _held_then(now.value, before.value, seen)
                for now, before in zip(value.entries, then.entries, strict=True)
            )
        )
    if isinstance(value, SeqValue) and isinstance(then, SeqValue):
        if value.items is then.items:
            return value.complete == then.complete
        return (
            value.complete == then.complete
            and value.item_origins is then.item_origins
            and len(value.items) == len(then.items)
            and all(
                _held_then(now, before, seen)
                for now, before in zip(value.items, then.items, strict=True)
            )
        )
    if isinstance(value, Instance) and isinstance(then, Instance):
        return value.ref is then.ref and unchanged_since(value.args, then.args)
    return False


_CHANGING = (DictValue, SeqValue, Instance)
"""What may change after it is made (contents, a config's fields); the rest never does."""


def _kept(value: Value, copies: dict[int, Value]) -> Value:
    if not isinstance(value, _CHANGING):
        return value
    found = copies.get(id(value))
    if found is not None:
        return found  # a value inside itself: the copy holds its own copy
    if isinstance(value, Instance):
        if value.ref.qualname != GYM_CONFIG:
            return value  # only a config's fields are set after it is built (store_keyword)
        instance = _copy(value)
        copies[id(value)] = instance
        if value.constructed is not None and unchanged_since(value.args, value.constructed):
            instance.args = value.constructed  # kept already, when it was constructed
        else:
            instance.args = _kept_args(value.args, copies)
        return instance
    if isinstance(value, DictValue):
        mapping = DictValue(value.entries, value.origin, value.complete, value.default_on_missing)
        copies[id(value)] = mapping
        if any(isinstance(entry.value, _CHANGING) for entry in value.entries):
            mapping.entries = tuple(
                Entry(entry.key, _kept(entry.value, copies), entry.origin)
                for entry in value.entries
            )  # else the entries (immutable, holding nothing that changes) are shared
        return mapping
    sequence = SeqValue(value.kind, value.items, value.origin, value.item_origins, value.complete)
    copies[id(value)] = sequence
    if any(isinstance(item, _CHANGING) for item in value.items):
        sequence.items = tuple(_kept(item, copies) for item in value.items)
    return sequence


@contextmanager
def sealed() -> Iterator[None]:
    stack: list[UndoLog] = _local.__dict__.setdefault("stack", [])
    undo: UndoLog = {}
    stack.append(undo)
    try:
        yield
    finally:
        stack.pop()
        for value, state in undo.values():
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
        return (value.entries, value.complete)
    if isinstance(value, SeqValue):
        return (value.items, value.item_origins, value.complete)
    if isinstance(value, Instance):
        return (value.args,)
    return ()


def _restore(value: object, state: tuple[Any, ...]) -> None:
    if isinstance(value, DictValue):
        value.entries, value.complete = state
    elif isinstance(value, SeqValue):
        value.items, value.item_origins, value.complete = state
    elif isinstance(value, Instance):
        (value.args,) = state


Ends = dict[int, tuple[Any, tuple[Any, ...], tuple[Any, ...]]]
"""By value id: the value, its state before a branch, and its state where the branch ended."""


@contextmanager
def forked() -> Iterator[Ends]:
    """One branch of a fork: like :func:`sealed`, what it changes is undone when it ends (the
    next branch starts from the same values), and the state each value was left in is handed
    back, for :func:`join_forks`."""
    stack: list[UndoLog] = _local.__dict__.setdefault("stack", [])
    undo: UndoLog = {}
    ends: Ends = {}
    stack.append(undo)
    try:
        yield ends
    finally:
        stack.pop()
        for key, (value, state) in undo.items():
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
        _record(value)
        if all(_same_state(states[0], other) for other in states[1:]):
            _restore(value, states[0])
        else:
            _restore(value, _agreed(value, states))


def _same_state(first: tuple[Any, ...], second: tuple[Any, ...]) -> bool:
    if len(first) != len(second):
        return False
    for a, b in zip(first, second, strict=True):
        if isinstance(a, tuple) and isinstance(b, tuple):
            if len(a) != len(b) or any(x is not y for x, y in zip(a, b, strict=True)):
                return False
        elif isinstance(a, dict) and isinstance(b, dict):
            if a.keys() != b.keys() or any(a[k] is not b[k] for k in a):
                return False
        elif isinstance(a, CallArgs) and isinstance(b, CallArgs):
            if not _same_state(_args_state(a), _args_state(b)):
                return False
        elif a is not b and a != b:
            return False
    return True


def _args_state(args: CallArgs) -> tuple[Any, ...]:
    return (tuple(args.positional), args.keywords, args.keyword_origins, args.star_unknown)


def _agreed(value: object, states: list[tuple[Any, ...]]) -> tuple[Any, ...]:
    """The part of ``states`` that every path agrees on."""
    if isinstance(value, DictValue):
        return (tuple(joined_entries([state[0] for state in states])), False)
    if isinstance(value, SeqValue):
        return ((), (), False)
    if isinstance(value, Instance):
        args = [state[0] for state in states]
        keywords, origins = joined_keywords([(a.keywords, a.keyword_origins) for a in args])
        star_unknown = any(a.star_unknown for a in args)
        return (CallArgs(args[0].positional, keywords, origins, star_unknown),)
    return states[0]
