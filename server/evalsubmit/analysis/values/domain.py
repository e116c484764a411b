"""The abstract value domain.

A value is one of:

* :class:`Known` — a plain Python object rebuilt from literals (``str``, ``int``, ``Path``,
  ``datetime`` …), safe to hand to pydantic because evalsubmit built it itself;
* :class:`DictValue` / :class:`SeqValue` — containers whose parts are values, so a refused
  lambda deep inside keeps the place where it was written;
* :class:`Refused` — something the SDK refuses to serialise (with the reason and its origin);
* :class:`OneShot` — a one-shot iterator, which the SDK silently sends as ``[]``;
* :class:`Instance` / :class:`ClassValue` / :class:`FunctionValue` / :class:`ModuleValue` —
  objects whose identity matters to the rules (a client, a runner, a config, a user class);
* :class:`Unknown` — anything not statically known. Unknown is never diagnosed, never guessed.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from evalsubmit.analysis.values.heap import version_in_layers
from evalsubmit.analysis.values.objects import (
    CallArgs,
    ClassRef,
    ClassValue,
    FunctionValue,
    ModuleValue,
    PartialValue,
)
from evalsubmit.core.findings import Span
from evalsubmit.core.records import record


@record
class Origin:
    """Where a value was written: a file (``None`` = the module being analysed) and a span."""

    path: Path | None
    span: Span


@dataclass(eq=False, slots=True)
class Known:
    """A value known exactly: ``obj`` is the Python object itself."""

    obj: Any
    origin: Origin | None = None


@dataclass(eq=False, slots=True)
class Unknown:
    """A value not statically known (its type may be)."""

    reason: str = "not statically known"
    type_name: str | None = None
    """When the type is known but not the content (an f-string is a ``str``); alternatives
    are joined with ``|`` (``int|None`` for ``os.cpu_count()``)."""
    element: Value | None = None
    """For a container of unknown length typed ``list[X]``/``dict[str, X]``: an element (a
    value of a dict)."""
    alternatives: tuple[Value, ...] = ()
    """For a ``Union[A, B]`` annotation: a value of each member type, so a rule can report
    what every alternative shares (two local-only runners are unsubmittable either way)."""

    def types(self) -> frozenset[str] | None:
        """The possible type names, or None when nothing is known of the type."""
        return frozenset(self.type_name.split("|")) if self.type_name else None


NEVER_RETURNS = "the call never returns"
"""Why a call's value is unknown when every path of the function it runs raised: the
statement that makes it ends its path."""


@dataclass(eq=False, slots=True)
class Refused:
    """A value the SDK cannot take (a generator, a range...)."""

    reason: str
    origin: Origin | None
    materialize: str | None = None
    """A mechanical fix when one exists, e.g. ``"list"`` for ``range(...)``."""
    items: list[Value] | None = None
    """For iterables such as ``range(3)``: what iterating it yields, when known."""
    type_qualname: str | None = None
    """The standard-library class of the object, when known (``logging.Logger``): which of
    its attributes are methods."""


@dataclass(eq=False, slots=True)
class OneShot:
    """An iterator: its items can be read once."""

    reason: str
    origin: Origin | None
    items: list[Value] | None = None
    """What it would yield, when statically known (so ``list(...)`` of it is known)."""


@dataclass(eq=False, slots=True)
class Entry:
    """One entry of a dict value."""

    key: Value
    value: Value
    origin: Origin | None
    """The ``key: value`` entry in a dict literal, or the ``d[k] = v`` statement."""


class DictValue:
    """A dict, entry by entry. Its entries and ``complete`` are the version the walk under way
    sees (:mod:`.heap`); only :mod:`.store` makes a new one."""

    __slots__ = ("_complete", "_entries", "_layered", "default_on_missing", "origin")
    __match_args__ = ("entries", "origin", "complete", "default_on_missing")

    def __init__(
        self,
        entries: tuple[Entry, ...] = (),
        origin: Origin | None = None,
        complete: bool = True,
        default_on_missing: bool = False,
    ) -> None:
        self._entries = entries
        self.origin = origin
        self._complete = complete
        """False when entries of unknown keys may exist (``**unknown``, ``d.update(x)``)."""
        self.default_on_missing = default_on_missing
        """A ``defaultdict`` or ``Counter``: reading a missing key gives a value, never raises."""
        self._layered = False
        """Whether a layer may hold a later version (else the built one is the only one)."""

    @property
    def entries(self) -> tuple[Entry, ...]:
        return self._version()[0] if self._layered else self._entries

    @property
    def complete(self) -> bool:
        return self._version()[1] if self._layered else self._complete

    def _version(self) -> tuple[tuple[Entry, ...], bool]:
        found = version_in_layers(self)
        if found is not None:
            return cast(tuple[tuple[Entry, ...], bool], found)
        return (self._entries, self._complete)

    def __repr__(self) -> str:
        return f"DictValue(entries={self.entries!r}, complete={self.complete!r})"

    def get(self, key: object) -> Entry | None:
        """The entry of ``key``; None when there is none, or when an entry of a key not known
        statically was written after it (that key may be ``key``: ``complete`` is then False)."""
        for entry in reversed(self.entries):
            if known_tuple(entry.key):
                continue  # a tuple of known items: equal only to that tuple, never looked up
            if not isinstance(entry.key, Known):
                return None
            if entry.key.obj == key:
                return entry
        return None


def known_tuple(key: Value) -> bool:
    """``(1, 2)`` as a key: a tuple of known items, a key as known as a literal."""
    return (
        isinstance(key, SeqValue)
        and key.kind is tuple
        and key.complete
        and all(isinstance(item, Known) for item in key.items)
    )


class SeqValue:
    """A list, tuple, set or frozenset, item by item. Its items, their origins and ``complete``
    are the version the walk under way sees (:mod:`.heap`); only :mod:`.store` makes a new one."""

    __slots__ = ("_complete", "_item_origins", "_items", "_layered", "kind", "origin")
    __match_args__ = ("kind", "items", "origin", "item_origins", "complete")

    def __init__(
        self,
        kind: type,  # list, tuple, set or frozenset
        items: tuple[Value, ...],
        origin: Origin | None = None,
        item_origins: tuple[Origin | None, ...] = (),
        complete: bool = True,
    ) -> None:
        self.kind = kind
        self._items = items
        self.origin = origin
        self._item_origins = item_origins
        self._complete = complete
        """False once a change not followed statically (``lst.sort(key=f)``, ``lst.extend(x)``
        of an unknown ``x``) may have changed the items: they are no longer known."""
        self._layered = False

    @property
    def items(self) -> tuple[Value, ...]:
        return self._version()[0] if self._layered else self._items

    @property
    def item_origins(self) -> tuple[Origin | None, ...]:
        return self._version()[1] if self._layered else self._item_origins

    @property
    def complete(self) -> bool:
        return self._version()[2] if self._layered else self._complete

    def _version(self) -> tuple[tuple[Value, ...], tuple[Origin | None, ...], bool]:
        found = version_in_layers(self)
        if found is not None:
            return cast(tuple[tuple[Value, ...], tuple[Origin | None, ...], bool], found)
        return (self._items, self._item_origins, self._complete)

    def __repr__(self) -> str:
        return f"SeqValue({self.kind.__name__}, items={self.items!r}, complete={self.complete!r})"


class Instance:
    """An instance of a class, with the arguments it was constructed with. Its arguments are
    the version the walk under way sees (:mod:`.heap`): a config gets new ones when a field is
    set, and only :mod:`.store` makes them."""

    __slots__ = (
        "_args",
        "_layered",
        "attributes",
        "constructed",
        "fields",
        "generic",
        "maybe_none",
        "origin",
        "ref",
        "validated",
    )
    __match_args__ = ("ref", "args", "origin", "fields", "attributes")

    def __init__(
        self,
        ref: ClassRef,
        args: CallArgs,
        origin: Origin | None = None,
        fields: DictValue | None = None,
        attributes: dict[str, Value] | None = None,
        maybe_none: bool = False,
        generic: bool = False,
        validated: bool = True,
        constructed: CallArgs | None = None,
    ) -> None:
        self.ref = ref
        self._args = args
        self.origin = origin
        self.fields = fields
        """For dataclass and pydantic-model instances: the JSON object they serialise to."""
        self.attributes = attributes
        """For instances of the user's classes: what construction set on it (``self.x = v``
        in ``__init__`` and the test set-up methods, dataclass fields), as far as known."""
        self.maybe_none = maybe_none
        """Typed ``Optional[X]``: an instance of X when used as one, but possibly None."""
        self.generic = generic
        """A class's generic instance (what any instance surely holds), not one built here."""
        self.validated = validated
        """False for a pydantic model built without validation (``model_construct``,
        ``model_copy(update=...)``): the SDK validates it only when it is submitted."""
        self.constructed = constructed
        """For a validated config: its arguments as its constructor validated them (kept out
        of reach of later changes). What is set or stored into it afterwards
        (``cfg.num_repeats = 0``, ``cfg.env_vars["X"] = v``) is not validated until the SDK
        validates it again at submit."""
        self._layered = False

    @property
    def args(self) -> CallArgs:
        if self._layered:
            found = version_in_layers(self)
            if found is not None:
                args: CallArgs = found[0]
                return args
        return self._args

    def __repr__(self) -> str:
        return f"Instance({self.ref.qualname}, args={self.args!r})"

    def copy(self, args: CallArgs | None = None, maybe_none: bool | None = None) -> Instance:
        """A new instance like this one at the version the walk under way sees, with other
        ``args`` or ``maybe_none`` when given."""
        return Instance(
            self.ref,
            self.args if args is None else args,
            self.origin,
            self.fields,
            self.attributes,
            self.maybe_none if maybe_none is None else maybe_none,
            self.generic,
            self.validated,
            self.constructed,
        )


def typed_instance(ref: ClassRef) -> Instance:
    """An instance of ``ref`` whose content is not known (from a type, not a call)."""
    return Instance(ref, CallArgs(star_unknown=True))


Value = (
    Known
    | Unknown
    | Refused
    | OneShot
    | DictValue
    | SeqValue
    | ClassValue
    | Instance
    | FunctionValue
    | PartialValue
    | ModuleValue
)


def type_name(value: Value) -> str:
    """The runtime type name the SDK would print for this value."""
    match value:
        case Known(obj=obj):
            return type(obj).__name__
        case DictValue():
            return "dict"
        case SeqValue(kind=kind):
            return kind.__name__
        case Instance(ref=ref):
            return ref.qualname.rsplit(".", 1)[-1]
        case ClassValue():
            return "type"
        case FunctionValue(cached=True):
            return "_lru_cache_wrapper"
        case FunctionValue():
            return "function"
        case PartialValue():
            return "partial"
        case ModuleValue():
            return "module"
        case Unknown(type_name=name):
            return name or "unknown"
        case Refused() | OneShot():
            return "object"
    return "object"
