"""Changing a value the interpreter holds.

Containers and configs change as Python's do (``d[k] = v``, ``lst.append(x)``, ``cfg.x = v``),
and a change is seen through every name bound to the value: the value keeps its identity. Its
contents are immutable (tuples; a config gets new arguments when a keyword is set), and a change
is a new version of them, which this module puts in the innermost layer of the walk under way
(:mod:`.heap`), never in the value: nothing else makes a version, so no walk can leak a change.

Two walks must not see each other's changes: the walk of one function body after the top level
(it is not a call: nothing says it runs, nor before what) must not change what another body
sees, and the analysis of one module must not change the values of a module it imports, which
are cached and shared with every other module importing it. A ``sealed()`` walk has its own
layer, dropped when it ends; each branch of a fork has its own (``forked()``), and
``join_forks`` makes the versions the branches that go on agree on. A module's own top level
read for an import is walked ``unsealed()``: what it builds is its own, cached with it. A value
being built (not yet bound or stored anywhere) is made whole by its constructor.

What a fact records is kept as it is then (:func:`kept`): the rules read facts after the walks
have ended and their layers are gone, and must see what the code had built at that point.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from evalsubmit.analysis.values.dict_entries import Entries
from evalsubmit.analysis.values.domain import DictValue, Entry, Instance, Origin, SeqValue, Value
from evalsubmit.analysis.values.heap import Version, layer, outside_layers, put_version
from evalsubmit.analysis.values.join import joined_entries, joined_keywords
from evalsubmit.analysis.values.objects import CallArgs
from evalsubmit.sdk.names import GYM_CONFIG

Changing = DictValue | SeqValue | Instance


def change_dict(
    value: DictValue, entries: tuple[Entry, ...] | None = None, complete: bool | None = None
) -> None:
    """A dict's next version: its entries and whether it lists them all (None: as they are)."""
    _put(
        value,
        (
            value.entries if entries is None else entries,
            value.complete if complete is None else complete,
        ),
    )


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
    """A list's or set's next version: its items (and their origins)."""
    _put(value, (items, origins, value.complete if complete is None else complete))


def forget(value: DictValue | SeqValue) -> None:
    """What the container holds is no longer known."""
    if isinstance(value, DictValue):
        change_dict(value, (), False)
    else:  # its items stay listed, no longer claimed to be all
        change_seq(value, value.items, value.item_origins, False)


def store_keyword(instance: Instance, name: str, item: Value, origin: Origin | None) -> None:
    """Set a config's (or a parser's) keyword ``name`` after construction. The instance gets
    new arguments: the ones its construction was recorded with stay as they were written."""
    args = instance.args
    origins = args.keyword_origins if origin is None else {**args.keyword_origins, name: origin}
    new = CallArgs(args.positional, {**args.keywords, name: item}, dict(origins), args.star_unknown)
    _put(instance, (new,))


def open_keywords(instance: Instance) -> None:
    """Keywords not known statically may have been set on ``instance``."""
    args = instance.args
    new = CallArgs(
        args.positional, dict(args.keywords), dict(args.keyword_origins), star_unknown=True
    )
    _put(instance, (new,))


def _put(value: Changing, version: Version) -> None:
    """``value`` is at ``version`` from now on, for the walk under way (outside every walk
    that keeps its changes apart, for good: it is settled into the value)."""
    if put_version(value, version):
        value._layered = True
    elif isinstance(value, DictValue):
        value._entries, value._complete = version
    elif isinstance(value, SeqValue):
        value._items, value._item_origins, value._complete = version
    else:
        (value._args,) = version


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
        instance = copies[id(value)] = value.copy()
        instance._args = _kept_args(value.args, copies)  # (a copy being built)
        return instance
    return _kept(value, copies)


def _kept_args(args: CallArgs, copies: dict[int, Value]) -> CallArgs:
    return CallArgs(
        [_kept(value, copies) for value in args.positional],
        {name: _kept(value, copies) for name, value in args.keywords.items()},
        args.keyword_origins,  # never changed once the call is made (a store makes new ones)
        args.star_unknown,
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
        instance = value.copy()
        copies[id(value)] = instance
        if value.constructed is not None and unchanged_since(value.args, value.constructed):
            instance._args = value.constructed  # kept already, when it was constructed
        else:
            instance._args = _kept_args(value.args, copies)
        return instance
    if isinstance(value, DictValue):
        mapping = DictValue(value.entries, value.origin, value.complete, value.default_on_missing)
        copies[id(value)] = mapping
        if any(isinstance(entry.value, _CHANGING) for entry in value.entries):
            mapping._entries = tuple(
                Entry(entry.key, _kept(entry.value, copies), entry.origin)
                for entry in value.entries
            )  # else the entries (immutable, holding nothing that changes) are shared
        return mapping
    sequence = SeqValue(value.kind, value.items, value.origin, value.item_origins, value.complete)
    copies[id(value)] = sequence
    if any(isinstance(item, _CHANGING) for item in value.items):
        sequence._items = tuple(_kept(item, copies) for item in value.items)
    return sequence


@contextmanager
def sealed() -> Iterator[None]:
    """What is changed inside is not seen once it ends (its layer is dropped)."""
    with layer():
        yield


@contextmanager
def unsealed() -> Iterator[None]:
    """Changes made here are the values' own, whatever sealed walks are under way around (a
    module imported while walking another: what its top level builds is its own)."""
    with outside_layers():
        yield


def _state(value: Changing) -> Version:
    if isinstance(value, DictValue):
        return (value.entries, value.complete)
    if isinstance(value, SeqValue):
        return (value.items, value.item_origins, value.complete)
    return (value.args,)


Ends = dict[int, tuple[Any, Version, Version]]
"""By value id: the value, its version before a branch, and the version the branch left it at."""


@contextmanager
def forked() -> Iterator[Ends]:
    """One branch of a fork: like :func:`sealed`, what it changes is not seen once it ends
    (the next branch starts from the same versions), and the version each value was left at
    is handed back, for :func:`join_forks`."""
    ends: Ends = {}
    try:
        with layer() as own:
            yield ends
    finally:
        for key, (value, after) in own.items():
            ends[key] = (value, _state(value), after)


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
        if all(_same_state(states[0], other) for other in states[1:]):
            _put(value, states[0])
        else:
            _put(value, _agreed(value, states))


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
