"""``@record``: an immutable dataclass whose immutability mypy proves, not each run.

A ``frozen=True`` dataclass generates ``__setattr__`` and ``__delattr__`` that refuse every
assignment at run time: two more generated methods per class, compiled when its module is
imported, which doubles what each class costs at start-up (the CLI loads about fifty of them
before it checks one file; the start-up budget is 100 ms). mypy already refuses every
assignment to a field of a class made by ``@record`` (it is a ``dataclass_transform`` with
``frozen_default``), and ``make test`` runs mypy, so the check moves from each run to CI.
Everything else is as a frozen dataclass: equality and hash by fields (``eq=False``: identity),
``dataclasses.replace``, ``fields``, ``__match_args__``, slots unless ``slots=False``.

``Record``: the same record written as a plain class, for the classes a one-file check loads.
``dataclass`` writes each class's ``__init__``, ``__repr__``, ``__eq__`` and ``__hash__`` as
source and compiles it when the module is imported, most of what a record costs at start-up
(docs/benchmarks.md, "Start-up: records written out"). A subclass writes its ``__slots__``,
its fields as ``Final`` (mypy refuses an assignment outside ``__init__``, as it does for a
``@record``) and its ``__init__``, whose parameters are the fields in order. The base gives it
what the dataclass would, without compiling anything: ``__eq__`` and ``__hash__`` on the tuple
of the fields (``eq=False``: identity; ``hash=False``: unhashable, as a dataclass with ``eq``
and no ``unsafe_hash``), ``__repr__``, ``__match_args__``, and :func:`replace`. A record
compared or hashed on a hot path writes its own ``__eq__`` and ``__hash__`` (faster than the
base's), which the base then leaves alone.
"""

from __future__ import annotations

import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, ClassVar, TypeVar, dataclass_transform, overload

T = TypeVar("T")


@overload
def record(cls: type[T], /) -> type[T]: ...


@overload
def record(
    *, eq: bool = True, order: bool = False, slots: bool = True
) -> Callable[[type[T]], type[T]]: ...


@dataclass_transform(frozen_default=True, eq_default=True)
def record(
    cls: type[Any] | None = None,
    /,
    *,
    eq: bool = True,
    order: bool = False,
    slots: bool = True,
) -> Any:
    def make(cls: type[Any]) -> type[Any]:
        from dataclasses import dataclass  # not loaded for a module of Records only

        return dataclass(eq=eq, order=order, slots=slots, unsafe_hash=eq)(cls)

    return make if cls is None else make(cls)


class Record:
    """The base of a record written by hand (see the module's docstring)."""

    __slots__ = ()
    __match_args__: ClassVar[tuple[str, ...]] = ()
    _record_values: ClassVar[Callable[[Any], tuple[Any, ...]]]
    """The values of the compared fields, in order (``attrgetter``: no source compiled)."""
    _record_shown: ClassVar[tuple[str, ...]]

    def __init_subclass__(
        cls,
        *,
        eq: bool = True,
        hash: bool = True,
        compared: tuple[str, ...] | None = None,
        shown: tuple[str, ...] | None = None,
    ) -> None:
        """``compared`` and ``shown``: the fields that equality and hash, and ``repr``, use
        when not all (a dataclass's ``field(compare=False)`` and ``field(repr=False)``)."""
        super().__init_subclass__()
        names = _parameters(cls)
        cls.__match_args__ = names  # type: ignore[misc]  # each class's own, as a dataclass's
        cls._record_values = _getter(names if compared is None else compared)
        cls._record_shown = names if shown is None else shown
        if "__eq__" in cls.__dict__:  # its own (and __hash__, or None as Python sets)
            return
        if not eq:
            cls.__eq__ = object.__eq__  # type: ignore[method-assign]
            cls.__hash__ = object.__hash__  # type: ignore[method-assign]
        elif not hash:
            cls.__hash__ = None  # type: ignore[method-assign,assignment]

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            values = self.__class__._record_values
            return values(self) == values(other)
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.__class__._record_values(self))

    @reprlib.recursive_repr()
    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._record_shown)
        return f"{self.__class__.__qualname__}({shown})"


R = TypeVar("R", bound=Record)  # the class, not its name: a name is compiled (a ForwardRef)


def replace(record: R, /, **changes: Any) -> R:
    """``record`` with the fields in ``changes`` changed: ``dataclasses.replace`` of a Record
    (an unknown name is the ``TypeError`` of its ``__init__``)."""
    for name in record.__match_args__:
        if name not in changes:
            changes[name] = getattr(record, name)
    return record.__class__(**changes)


def _parameters(cls: type[Record]) -> tuple[str, ...]:
    """The fields, in order: the parameters of ``__init__``, each of which must be a slot."""
    code = cls.__init__.__code__
    names = code.co_varnames[1 : code.co_argcount + code.co_kwonlyargcount]
    slots = {name for klass in cls.__mro__ for name in klass.__dict__.get("__slots__", ())}
    if not slots.issuperset(names):
        raise TypeError(f"{cls.__qualname__}: the parameters of __init__ are not its slots")
    return names


def _getter(names: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function of a record to the tuple of ``names``' values."""
    if len(names) > 1:
        return attrgetter(*names)
    if names:
        one = attrgetter(names[0])
        return lambda record: (one(record),)
    return lambda record: ()
