"""Where the versions of containers and configs live while a walk is under way: in layers, apart
from the values.

A container or config is built whole, holding its first version (its contents when it was made).
A change does not touch the value: :mod:`.store` puts the new version in the innermost *layer*,
one per walk that must not leak what it changes (a function body that is not a call, a branch of
an ``if``, the analysis of one module, whose imports are cached and shared). Reading a value goes
through the layers, innermost first, down to the version the value was built with. So a fork is
a new empty layer (O(1)), the end of a walk whose changes must not be seen is dropping its layer
(nothing is undone), and a join reads what each branch's layer holds: the changes of that
branch, by value.

Outside every layer (a module's top level read for an import: what it builds is its own, cached
with it), a change is the value's own version from then on: it is settled into the value.

The layers are per thread, as the walks are: two analyses in two threads never see each other's.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

Version = tuple[Any, ...]
"""What a value holds at one point: a dict's entries and whether they are all; a sequence's
items, their origins and whether they are all; a config's arguments."""

Layer = dict[int, tuple[Any, Version]]
"""By value id: the value (kept alive while the layer is, so its id stays its own) and the
version a walk left it at."""

_local = threading.local()


def _layers() -> list[Layer]:
    layers: list[Layer] | None = getattr(_local, "layers", None)
    if layers is None:
        layers = _local.layers = []
    return layers


def version_in_layers(value: object) -> Version | None:
    """The version of ``value`` the walk under way sees, when a layer holds one."""
    key = id(value)
    for layer in reversed(_layers()):
        found = layer.get(key)
        if found is not None:
            return found[1]
    return None


def put_version(value: object, version: Version) -> bool:
    """Make ``version`` what the walk under way sees of ``value``; False outside every layer,
    where the caller settles it into the value."""
    layers = _layers()
    if not layers:
        return False
    layers[-1][id(value)] = (value, version)
    return True


@contextmanager
def layer() -> Iterator[Layer]:
    """A walk whose changes stay in its own layer: dropped when the walk ends, and handed to
    the caller (what the walk changed, by value) for a join."""
    layers = _layers()
    own: Layer = {}
    layers.append(own)
    try:
        yield own
    finally:
        layers.pop()


@contextmanager
def outside_layers() -> Iterator[None]:
    """A walk that sees and changes the values as they were built (a module's top level read
    for an import), whatever walks are under way around it."""
    saved = _layers()
    _local.layers = []
    try:
        yield
    finally:
        _local.layers = saved
