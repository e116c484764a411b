"""What iterating a value yields, when that is statically known and small.

This is what lets ``list(s * 7 for s in range(4))`` or ``dict(zip(["a"], [1]))`` be known
values instead of unknown ones: the pieces are literals, the operations are modelled, nothing of
the user's is run. Everything is bounded by :data:`MAX_ITEMS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evalsubmit.analysis.values.dict_entries import Entries
from evalsubmit.analysis.values.domain import (
    DictValue,
    Known,
    OneShot,
    Origin,
    Refused,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.objects import ClassRef, ClassValue, UserClass

MAX_ITEMS = 1_000


def items_of(value: Value) -> tuple[Value, ...] | None:
    """The values iteration yields, in order, or ``None`` when not known."""
    match value:
        case SeqValue(items=items, complete=True):
            return items if len(items) <= MAX_ITEMS else None
        case OneShot(items=items) | Refused(items=items):
            return tuple(items) if items is not None else None
        case DictValue(entries=entries, complete=True):
            return tuple(entry.key for entry in entries)
        case ClassValue(ref=ClassRef(user=UserClass(enum_members=members))) if members:
            unique = list({id(member): member for member in members.values()}.values())
            return tuple(Known(member, None) for member in unique)  # aliases are not iterated
        case Known(obj=obj) if isinstance(obj, (str, list, tuple, set, frozenset, dict)):
            if len(obj) > MAX_ITEMS:
                return None
            return tuple(Known(item, value.origin) for item in obj)
    return None


def known_range(args: list[Value], origin: Origin | None) -> Refused:
    """``range(...)``: refused as a JSON value, but its items are known for ``list(...)``."""
    bounds = [a.obj for a in args if isinstance(a, Known) and isinstance(a.obj, int)]
    items: list[Value] | None = None
    if len(bounds) == len(args) and 1 <= len(args) <= 3 and (len(args) < 3 or bounds[2] != 0):
        span = range(*bounds)
        if len(span) <= MAX_ITEMS:
            items = [Known(i, origin) for i in span]
    return Refused(
        "a range object", origin, materialize="list", items=items, type_qualname="builtins.range"
    )


def zipped(args: list[Value], origin: Origin | None) -> OneShot:
    columns = [items_of(a) for a in args]
    if all(c is not None for c in columns) and columns:
        rows = zip(*[c for c in columns if c is not None], strict=False)
        items: list[Value] = [SeqValue(tuple, row, origin) for row in rows]
        return OneShot("a zip() iterator", origin, items)
    return OneShot("a zip() iterator", origin)


def distinct(items: Sequence[Value]) -> list[int] | None:
    """The positions of a set's items that Python keeps: a known literal equal to one before
    it (``{"qa", "qa"}``, ``{1, True}``) is dropped; an object is its own item. None when
    that is not known: an unknown item beside another may equal it, and one value met twice
    may be one object (or two evaluations of one expression)."""
    kept: list[int] = []
    seen: set[Any] = set()
    objects: set[int] = set()
    for index, item in enumerate(items):
        if isinstance(item, Known):
            try:
                if item.obj in seen:
                    continue
                seen.add(item.obj)
            except TypeError:  # unhashable: a TypeError at run time, kept as written
                pass
        elif (isinstance(item, Unknown) and len(items) > 1) or id(item) in objects:
            return None
        else:
            objects.add(id(item))
        kept.append(index)
    return kept


def as_python(value: Value) -> tuple[bool, Any]:
    """(True, object) when the value is made only of known literals."""
    match value:
        case Known(obj=obj):
            return True, obj
        case SeqValue(kind=kind, items=items, complete=True):
            parts = [as_python(item) for item in items]
            if all(ok for ok, _ in parts):
                try:
                    return True, kind(obj for _, obj in parts)
                except TypeError:
                    return False, None
    return False, None


def pairs_to_dict(items: Sequence[Value], origin: Origin | None) -> DictValue | None:
    entries = Entries()
    for item in items:
        pair = items_of(item)
        if pair is None or len(pair) != 2:
            return None
        ok, key = as_python(pair[0])
        entries.put(Known(key, origin) if ok else pair[0], pair[1], origin)
    return entries.dict(origin)
