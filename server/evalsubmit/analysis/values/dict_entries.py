"""The entries of a dict being built, and Python's rules for its keys."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from evalsubmit.analysis.values.domain import (
    DictValue,
    Entry,
    Known,
    Origin,
    Unknown,
    Value,
    known_tuple,
)


class Entries:
    """The entries of a dict being built, not yet seen by anything else (a literal, ``dict()``,
    or the next version of a dict a store changes: :mod:`.store`)."""

    __slots__ = ("_listed", "_lists_all", "_positions")

    def __init__(self, start: Iterable[Entry] = (), complete: bool = True) -> None:
        self._listed = list(start)
        self._lists_all = complete
        self._positions: dict[object, int] | None = None
        """Where each hashable known key is listed, once the entries are too many to look a
        key up one by one (a literal of thousands of keys would take time quadratic in them)."""

    def put(self, key: Value, value: Value, origin: Origin | None) -> None:
        """``d[key] = value``, with Python's semantics: an equal key keeps its first spelling
        and position. A key not known statically may equal any other: the dict may then hold
        keys it does not list."""
        entries = self._listed
        if isinstance(key, Known):
            index = self._position(key.obj)
            if index is not None:
                entries[index] = Entry(entries[index].key, value, origin)
                return
            if self._positions is not None and _hashable(key.obj):
                self._positions[key.obj] = len(entries)
        elif not known_tuple(key):
            self._lists_all = False
        entries.append(Entry(key, value, origin))

    def _position(self, key: object) -> int | None:
        """Where the entry of a key equal to ``key`` is listed."""
        entries = self._listed
        if len(entries) <= _LOOKED_UP_ONE_BY_ONE or not _hashable(key):
            for index, entry in enumerate(entries):
                if isinstance(entry.key, Known) and _same_key(entry.key.obj, key):
                    return index
            return None
        positions = self._positions
        if positions is None:
            positions = self._positions = {}
            for index, entry in enumerate(entries):
                if isinstance(entry.key, Known) and _hashable(entry.key.obj):
                    positions.setdefault(entry.key.obj, index)
        return positions.get(key)

    def unpack(self, value: Value) -> None:
        """``**value`` in a literal: its entries follow, each as ``d[key] = value`` (one of
        an equal key replaces the value before it). Entries it may hold but does not list may
        override any entry before it."""
        if isinstance(value, DictValue):
            if not value.complete:
                self.overridden()
            for entry in value.entries:
                self.put(entry.key, entry.value, entry.origin)
            self._lists_all = self._lists_all and value.complete
        else:
            self.overridden()

    def overridden(self) -> None:
        """Entries of keys not known statically were merged in (``**unknown``,
        ``d.update(unknown)``): any entry so far may have been overridden. Its key stays (a
        merge never removes one), its value is no longer known."""
        self._lists_all = False
        self._listed = [
            Entry(entry.key, Unknown("may be overridden at run time"), entry.origin)
            for entry in self._listed
        ]

    @property
    def complete(self) -> bool:
        return self._lists_all

    def done(self) -> tuple[Entry, ...]:
        return tuple(self._listed)

    def dict(self, origin: Origin | None) -> DictValue:
        return DictValue(self.done(), origin, self._lists_all)


def named_entries(
    values: Mapping[str, Value], origins: Mapping[str, Origin], default: Origin | None = None
) -> tuple[Entry, ...]:
    """A dict's entries for values by name (keyword arguments, fields), each with its origin."""
    return tuple(
        Entry(Known(name), value, origins.get(name, default)) for name, value in values.items()
    )


_LOOKED_UP_ONE_BY_ONE = 16


def _hashable(key: object) -> bool:
    try:
        hash(key)
    except TypeError:
        return False
    return True


def _same_key(first: object, second: object) -> bool:
    try:
        return hash(first) == hash(second) and bool(first == second)
    except TypeError:
        return False
