"""``@record``: an immutable dataclass whose immutability mypy proves, not each run.

A ``frozen=True`` dataclass generates ``__setattr__`` and ``__delattr__`` that refuse every
assignment at run time: two more generated methods per class, compiled when its module is
imported, which doubles what each class costs at start-up (the CLI loads about fifty of them
before it checks one file; the start-up budget is 100 ms). mypy already refuses every
assignment to a field of a class made by ``@record`` (it is a ``dataclass_transform`` with
``frozen_default``), and ``make test`` runs mypy, so the check moves from each run to CI.
Everything else is as a frozen dataclass: equality and hash by fields (``eq=False``: identity),
``dataclasses.replace``, ``fields``, ``__match_args__``, slots unless ``slots=False``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar, dataclass_transform, overload

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
        return dataclass(eq=eq, order=order, slots=slots, unsafe_hash=eq)(cls)

    return make if cls is None else make(cls)
