"""The methods of dicts, lists and sets, applied to the values the interpreter holds.

A container value is shared by every name and container that refers to it, as in Python, so a
method that changes it changes what all of them see (its contents are rebound through
``values/store``, the one place a value changes). What can be followed exactly is (``append``,
``pop("k")``, ``del d["k"]``...); a change that cannot (``lst.sort(key=f)``, ``d.pop(k)`` of an
unknown ``k``) makes the items unknown: a removed item must never be reported, and an item the
value lacks must never be assumed.
"""

from __future__ import annotations

import ast

from evalsubmit.analysis.values.dict_entries import Entries
from evalsubmit.analysis.values.domain import (
    DictValue,
    Known,
    Origin,
    Refused,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.iterables import items_of
from evalsubmit.analysis.values.objects import CallArgs
from evalsubmit.analysis.values.store import change_dict, change_seq, forget, store_entry

DICT_VIEWS = {
    "keys": "a dict.keys() view",
    "values": "a dict.values() view",
    "items": "a dict.items() view",
}


def method_name(bound: str) -> str:
    """``pop`` from a bound-method name such as ``bound method .pop()``."""
    return bound.rsplit(".", 1)[-1].removesuffix("()")


# ----- dicts -------------------------------------------------------------------------------


def dict_method(base: DictValue, method: str, args: CallArgs, origin: Origin) -> Value:
    positional = args.positional
    if method in DICT_VIEWS and not positional:
        return Refused(DICT_VIEWS[method], origin, "list", view_items(base, method, origin))
    if method == "copy":
        return DictValue(base.entries, origin, base.complete)
    if method == "update":
        return _dict_update(base, args)
    if method == "get" and positional and isinstance(positional[0], Known):
        entry = base.get(positional[0].obj)
        if entry is not None:
            return entry.value
        if base.complete:
            return positional[1] if len(positional) > 1 else Known(None, origin)
        return Unknown()
    if method == "setdefault" and positional:
        return _setdefault(base, positional, args, origin)
    if method == "pop" and positional:
        return _dict_pop(base, positional)
    if method == "popitem":
        forget(base)
        return Unknown("an item removed at run time")
    if method == "clear":
        change_dict(base, (), True)
        return Known(None)
    return Unknown("the result of a method call")


def _dict_update(base: DictValue, args: CallArgs) -> Value:
    entries = Entries(base.entries, base.complete)
    for value in args.positional:
        if not isinstance(value, DictValue) or not value.complete:
            entries.overridden()  # keys it does not list may replace any entry so far
        if isinstance(value, DictValue):
            for entry in value.entries:
                entries.put(entry.key, entry.value, entry.origin)
    if args.star_unknown:
        entries.overridden()  # ``**unknown``: not the keywords listed (they cannot repeat)
    for key, value in args.keywords.items():
        entries.put(Known(key), value, args.keyword_origins.get(key))
    change_dict(base, entries.done(), entries.complete)
    return Known(None)


def _setdefault(base: DictValue, positional: list[Value], args: CallArgs, origin: Origin) -> Value:
    key = positional[0]
    default = positional[1] if len(positional) > 1 else Known(None, origin)
    if not isinstance(key, Known):
        change_dict(base, complete=False)
        return Unknown()
    entry = base.get(key.obj)
    if entry is not None:
        return entry.value
    if not base.complete:
        return Unknown()  # the key may exist among the unknown entries
    store_entry(base, key, default, args.keyword_origins.get("default") or origin)
    return default


def _dict_pop(base: DictValue, positional: list[Value]) -> Value:
    key = positional[0]
    if isinstance(key, Known):
        entry = base.get(key.obj)
        if entry is not None:
            change_dict(base, tuple(e for e in base.entries if e is not entry))
            return entry.value
        if base.complete:
            return positional[1] if len(positional) > 1 else Unknown("a KeyError at run time")
        return Unknown()
    forget(base)
    return Unknown()


def delete_item(base: Value, key: Value) -> None:
    """``del base[key]``."""
    if isinstance(base, DictValue):
        if isinstance(key, Known) and (entry := base.get(key.obj)) is not None:
            change_dict(base, tuple(e for e in base.entries if e is not entry))
        elif not isinstance(key, Known) or not base.complete:
            forget(base)
    elif isinstance(base, SeqValue) and base.kind is list:
        if base.complete and _index(base, key) is not None:
            _remove_at(base, _index(base, key) or 0)
        else:
            forget(base)


def view_items(base: DictValue, method: str, origin: Origin) -> list[Value] | None:
    """What iterating ``base.keys()`` / ``.values()`` / ``.items()`` yields, when known."""
    if not base.complete:
        return None
    if method == "keys":
        return [entry.key for entry in base.entries]
    if method == "values":
        return [entry.value for entry in base.entries]
    return [SeqValue(tuple, (entry.key, entry.value), origin) for entry in base.entries]


def typed_view(base: Unknown, method: str) -> Value:
    """``.values()`` / ``.items()`` of a dict known only by its value type."""
    if method == "values":
        return Unknown("a dict view", "list", base.element)
    if method == "items" and base.element is not None:
        pair = SeqValue(tuple, (Unknown("a dict key"), base.element))
        return Unknown("a dict view", "list", pair)
    return Unknown("the result of a method call")


# ----- lists and sets ----------------------------------------------------------------------

_READ_ONLY = frozenset({"index", "count", "copy", "union", "intersection", "difference"})
_READ_ONLY |= {"symmetric_difference", "issubset", "issuperset", "isdisjoint"}


def seq_method(base: SeqValue, method: str, args: CallArgs, origin: Origin) -> Value:
    if method == "copy":
        return SeqValue(base.kind, base.items, origin, base.item_origins, base.complete)
    if method in _READ_ONLY or base.kind not in (list, set):
        return Unknown("the result of a method call")
    if base.kind is set:
        return _set_method(base, method, args, origin)
    positional = args.positional
    if (not base.complete or args.keywords or args.star_unknown) and method != "clear":
        forget(base)
        return Unknown("the result of a method call")
    if method == "append" and len(positional) == 1:
        _insert(base, len(base.items), positional[0], origin)
    elif method == "extend" and len(positional) == 1:
        extend(base, positional[0], origin)
    elif method == "insert" and len(positional) == 2 and isinstance(positional[0], Known):
        index = positional[0].obj
        if isinstance(index, int) and not isinstance(index, bool):
            position = max(
                0, min(len(base.items), index if index >= 0 else len(base.items) + index)
            )
            _insert(base, position, positional[1], origin)
        else:
            forget(base)
    elif method == "pop" and len(positional) <= 1:
        index = _index(base, positional[0] if positional else Known(-1))
        if index is None:
            forget(base)
            return Unknown()
        return _remove_at(base, index)
    elif method == "clear" and not positional:
        change_seq(base, (), (), True)
    elif method == "reverse" and not positional:
        change_seq(base, base.items[::-1], base.item_origins[::-1])
    else:  # remove, sort, or a call that fails at run time: what stays is not followed
        forget(base)
    return Known(None) if method != "pop" else Unknown()


def _set_method(base: SeqValue, method: str, args: CallArgs, origin: Origin) -> Value:
    if method == "clear" and not args.positional:
        change_seq(base, (), (), True)
        return Known(None)
    if method == "add" and len(args.positional) == 1 and base.complete:
        item = args.positional[0]
        if isinstance(item, Known) and all(isinstance(i, Known) for i in base.items):
            if not any(_equal(i, item) for i in base.items):
                _insert(base, len(base.items), item, origin)
            return Known(None)
    forget(base)
    return Unknown("the result of a method call")


def keeps_identity(value: Value) -> bool:
    """Whether ``x op= y`` changes ``value`` in place (dicts, lists, sets) rather than binding
    a new object."""
    return isinstance(value, DictValue) or (
        isinstance(value, SeqValue) and value.kind in (list, set)
    )


def in_place(base: Value, op: ast.operator, operand: Value, origin: Origin) -> None:
    """``base op= operand`` for a container that :func:`keeps_identity`."""
    if isinstance(base, SeqValue) and base.kind is list and isinstance(op, ast.Add):
        extend(base, operand, origin)
    elif (
        isinstance(base, DictValue) and isinstance(op, ast.BitOr) and isinstance(operand, DictValue)
    ):
        _dict_update(base, CallArgs([operand]))
    elif isinstance(base, (DictValue, SeqValue)):
        forget(base)


def extend(base: SeqValue, iterable: Value, origin: Origin) -> None:
    """``base.extend(iterable)`` / ``base += iterable``."""
    items = items_of(iterable)
    if items is None or not base.complete:
        forget(base)
        return
    origins = iterable.item_origins if isinstance(iterable, SeqValue) else ()
    added = tuple(
        (origins[offset] if offset < len(origins) else None) or origin
        for offset in range(len(items))
    )
    change_seq(base, (*base.items, *items), (*_aligned(base), *added))


def _insert(base: SeqValue, index: int, item: Value, origin: Origin | None) -> None:
    items, origins = base.items, _aligned(base)
    change_seq(
        base, (*items[:index], item, *items[index:]), (*origins[:index], origin, *origins[index:])
    )


def _remove_at(base: SeqValue, index: int) -> Value:
    items, origins = base.items, _aligned(base)
    index %= len(items)
    change_seq(base, items[:index] + items[index + 1 :], origins[:index] + origins[index + 1 :])
    return items[index]


def _aligned(base: SeqValue) -> tuple[Origin | None, ...]:
    """One origin per item (literals record them; other constructions may not)."""
    missing = len(base.items) - len(base.item_origins)
    if missing > 0:
        return (*base.item_origins, *(None,) * missing)
    return base.item_origins[: len(base.items)]


def _index(base: SeqValue, key: Value) -> int | None:
    if not isinstance(key, Known) or not isinstance(key.obj, int) or isinstance(key.obj, bool):
        return None
    index: int = key.obj
    return index if -len(base.items) <= index < len(base.items) else None


def _equal(first: Value, second: Value) -> bool:
    if not isinstance(first, Known) or not isinstance(second, Known):
        return False
    try:
        return bool(first.obj == second.obj)
    except Exception:
        return False
