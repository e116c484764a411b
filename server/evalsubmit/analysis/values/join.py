"""Joining the versions of one container or config that several paths left (an ``if``'s
branches, a loop that ran or did not): what every path agrees on is kept, the rest is not
claimed. The contents are compared and joined, not the objects holding them, so the same
semantics serve whatever holds the versions."""

from __future__ import annotations

from collections.abc import Sequence

from evalsubmit.analysis.values.domain import (
    Entry,
    Instance,
    Known,
    Origin,
    Unknown,
    Value,
    type_name,
)

Keywords = tuple[dict[str, Value], dict[str, Origin]]
"""A config's contents: its keyword values and where each was set."""


def joined_entries(versions: Sequence[Sequence[Entry]]) -> list[Entry]:
    """Entries whose key every path has (by a plain key), each with the joined value."""
    agreed: list[Entry] = []
    for entry in versions[0]:
        if not (isinstance(entry.key, Known) and isinstance(entry.key.obj, _PLAIN_KEYS)):
            continue
        found = [_entry(entries, entry.key.obj) for entries in versions]
        if all(other is not None for other in found):
            values = [other.value for other in found if other is not None]
            agreed.append(Entry(entry.key, joined(values), entry.origin))
    return agreed


def joined_keywords(versions: Sequence[Keywords]) -> Keywords:
    """Keywords every path sets, each with the joined value; one set on some paths only is
    unknown (its value on the others is the default)."""
    keywords: dict[str, Value] = {}
    origins: dict[str, Origin] = {}
    for name in dict.fromkeys(k for version in versions for k in version[0]):
        if all(name in version[0] for version in versions):
            keywords[name] = joined([version[0][name] for version in versions])
            origin = versions[0][1].get(name)
        else:
            keywords[name] = Unknown("set on some paths only")
            origin = None
        if origin is not None:
            origins[name] = origin
    return keywords, origins


_PLAIN_KEYS = (str, int, float, bool, bytes)


def _entry(entries: Sequence[Entry], key: object) -> Entry | None:
    for entry in reversed(entries):
        if (
            isinstance(entry.key, Known)
            and type(entry.key.obj) is type(key)
            and entry.key.obj == key
        ):
            return entry
    return None


def joined(values: list[Value]) -> Value:
    """One value standing for each of ``values`` (one per path): the value itself when they
    are all the same; an unknown otherwise, that is not None when none of them is (and of
    their type when they share it)."""
    first = values[0]
    if all(value is first for value in values):
        return first
    if (
        isinstance(first, Known)
        and isinstance(first.obj, _PLAIN_KEYS)
        and all(
            isinstance(v, Known) and type(v.obj) is type(first.obj) and v.obj == first.obj
            for v in values
        )
    ):
        return first
    if not all(_never_none(value) for value in values):
        return Unknown("set differently on different paths")
    names = {type_name(value) for value in values}
    shared = names.pop() if len(names) == 1 else "object"
    return Unknown(
        "set differently on different paths", shared if shared != "unknown" else "object"
    )


def _never_none(value: Value) -> bool:
    match value:
        case Known(obj=obj):
            return obj is not None
        case Instance(maybe_none=maybe_none):
            return not maybe_none
        case Unknown():
            types = value.types()
            return types is not None and not types & {"None", "NoneType"}
    return True
