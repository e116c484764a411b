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

import ast
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from evalsubmit.core.findings import Span
from evalsubmit.core.records import record

if TYPE_CHECKING:
    from evalsubmit.analysis.values.env import Env, ModuleSource


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


@dataclass(eq=False, slots=True)
class DictValue:
    """A dict, entry by entry."""

    entries: tuple[Entry, ...] = ()
    origin: Origin | None = None
    complete: bool = True
    """False when entries of unknown keys may exist (``**unknown``, ``d.update(x)``)."""
    default_on_missing: bool = False
    """A ``defaultdict`` or ``Counter``: reading a missing key gives a value, never raises."""

    def get(self, key: object) -> Entry | None:
        """The entry of ``key``; None when there is none, or when an entry of a key not known
        statically was written after it (that key may be ``key``: ``complete`` is then False)."""
        for entry in reversed(self.entries):
            if _known_tuple(entry.key):
                continue  # a tuple of known items: equal only to that tuple, never looked up
            if not isinstance(entry.key, Known):
                return None
            if entry.key.obj == key:
                return entry
        return None


class Entries:
    """The entries of a dict being built, not yet seen by anything else (a literal, ``dict()``,
    or the next version of a dict a store changes: :mod:`.store`)."""

    __slots__ = ("_entries", "_lists_all")

    def __init__(self, start: Iterable[Entry] = (), complete: bool = True) -> None:
        self._entries = list(start)
        self._lists_all = complete

    def put(self, key: Value, value: Value, origin: Origin | None) -> None:
        """``d[key] = value``, with Python's semantics: an equal key keeps its first spelling
        and position. A key not known statically may equal any other: the dict may then hold
        keys it does not list."""
        entries = self._entries
        if isinstance(key, Known):
            for index, entry in enumerate(entries):
                if isinstance(entry.key, Known) and _same_key(entry.key.obj, key.obj):
                    entries[index] = Entry(entry.key, value, origin)
                    return
        elif not _known_tuple(key):
            self._lists_all = False
        entries.append(Entry(key, value, origin))

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
        self._entries = [
            Entry(entry.key, Unknown("may be overridden at run time"), entry.origin)
            for entry in self._entries
        ]

    @property
    def complete(self) -> bool:
        return self._lists_all

    def done(self) -> tuple[Entry, ...]:
        return tuple(self._entries)

    def dict(self, origin: Origin | None) -> DictValue:
        return DictValue(self.done(), origin, self._lists_all)


def named_entries(
    values: Mapping[str, Value], origins: Mapping[str, Origin], default: Origin | None = None
) -> tuple[Entry, ...]:
    """A dict's entries for values by name (keyword arguments, fields), each with its origin."""
    return tuple(
        Entry(Known(name), value, origins.get(name, default)) for name, value in values.items()
    )


def _known_tuple(key: Value) -> bool:
    """``(1, 2)`` as a key: a tuple of known items, a key as known as a literal."""
    return (
        isinstance(key, SeqValue)
        and key.kind is tuple
        and key.complete
        and all(isinstance(item, Known) for item in key.items)
    )


def _same_key(first: object, second: object) -> bool:
    try:
        return hash(first) == hash(second) and bool(first == second)
    except TypeError:
        return False


@dataclass(eq=False, slots=True)
class SeqValue:
    """A list, tuple, set or frozenset, item by item."""

    kind: type  # list, tuple, set or frozenset
    items: tuple[Value, ...]
    origin: Origin | None = None
    item_origins: tuple[Origin | None, ...] = ()
    complete: bool = True
    """False once a change not followed statically (``lst.sort(key=f)``, ``lst.extend(x)`` of
    an unknown ``x``) may have changed the items: they are no longer known."""


@record
class ClassRef:
    """A class by identity: an SDK/stdlib class by qualified name, or a user class."""

    qualname: str
    user: UserClass | None = None


PydanticKind = Literal["model", "settings"]


@dataclass(eq=False, slots=True)
class UserClass:
    """A class defined in the analysed code."""

    name: str
    path: Path | None
    node: ast.ClassDef
    bases: list[Value]
    attributes: set[str]
    """Names the class body defines (methods, class attributes, fields)."""
    decorators: list[Value]
    enum_members: dict[str, Any] = field(default_factory=dict)
    class_values: dict[str, Value] = field(default_factory=dict)
    """Class attributes, as the class body binds them (not fields a constructor sets)."""
    methods: dict[str, FunctionValue] = field(default_factory=dict)
    properties: frozenset[str] = frozenset()
    """Methods read as attributes (``@property``, ``@cached_property``)."""
    fields: frozenset[str] = frozenset()
    """Dataclass or pydantic-model fields: set by the constructor, unknown without it."""
    pydantic: PydanticKind | None = None
    """A pydantic model (or pydantic-settings ``BaseSettings``), through any depth of the
    user's bases: known where the class is defined."""
    model_neutral: bool | None = None
    """For a pydantic model: whether nothing in it or its bases may change what its fields
    are given (:mod:`.pydantic_fields`), read at its first construction."""


@dataclass(eq=False, slots=True)
class ClassValue:
    """A class (SDK, standard library or user-defined) as a value."""

    ref: ClassRef
    generic: bool = False
    """A class method's ``cls`` walked whoever called it: the class or any subclass."""


@dataclass(eq=False, slots=True)
class Instance:
    """An instance of a class, with the arguments it was constructed with."""

    ref: ClassRef
    args: CallArgs
    origin: Origin | None = None
    fields: DictValue | None = None
    """For dataclass and pydantic-model instances: the JSON object they serialise to."""
    attributes: dict[str, Value] | None = None
    """For instances of the user's classes: what construction set on it (``self.x = v`` in
    ``__init__`` and the test set-up methods, dataclass fields), as far as known."""
    maybe_none: bool = False
    """Typed ``Optional[X]``: an instance of X when used as one, but possibly None."""
    generic: bool = False
    """A class's generic instance (what any instance surely holds), not one built here."""
    validated: bool = True
    """False for a pydantic model built without validation (``model_construct``,
    ``model_copy(update=...)``): the SDK validates it only when it is submitted."""
    constructed: CallArgs | None = None
    """For a validated config: its arguments as its constructor validated them (kept out of
    reach of later changes). What is set or stored into it afterwards (``cfg.num_repeats = 0``,
    ``cfg.env_vars["X"] = v``) is not validated until the SDK validates it again at submit."""


def typed_instance(ref: ClassRef) -> Instance:
    """An instance of ``ref`` whose content is not known (from a type, not a call)."""
    return Instance(ref, CallArgs(star_unknown=True))


@dataclass(eq=False, slots=True)
class CallArgs:
    """The arguments of a call, as values."""

    positional: list[Value] = field(default_factory=list)
    keywords: dict[str, Value] = field(default_factory=dict)
    keyword_origins: dict[str, Origin] = field(default_factory=dict)
    star_unknown: bool = False
    """``*args`` / ``**kwargs`` of unknown content were passed."""

    def after_first(self) -> CallArgs:
        """These arguments but the first positional one (``partial(f, *rest)``), copied."""
        return CallArgs(
            self.positional[1:], dict(self.keywords), dict(self.keyword_origins), self.star_unknown
        )


@dataclass(eq=False, slots=True)
class FunctionValue:
    """A function (or lambda) defined in the analysed code."""

    name: str
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | None
    origin: Origin | None
    module: ModuleSource | None = None
    """The module that defines it: its body is walked with that module's source."""
    bound_self: Value | None = None
    defaults: dict[str, Value] = field(default_factory=dict)
    """Parameter defaults, evaluated where the function is defined."""
    owner: ClassValue | None = None
    """For a method: the class that defines it (``super()`` starts after it)."""
    closure: Env | None = None
    """The scope it was defined in (a module's, or an enclosing function's)."""
    cached: bool = False
    """Wrapped by ``functools.cache``/``lru_cache``: a call runs the body only when its
    arguments hash (:mod:`..interp.cached`)."""


@dataclass(eq=False, slots=True)
class PartialValue:
    """``functools.partial(function, *args, **keywords)``: calling it calls ``function`` with
    these arguments first (its keywords overridden by the call's). Refused as a JSON value."""

    function: Value
    args: CallArgs
    origin: Origin | None = None


@dataclass(eq=False, slots=True)
class ModuleValue:
    """An imported module, by its qualified name."""

    qualname: str


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
