"""What ``obj.name`` is on a modelled type: a method (bound on reading), or data.

Reading an attribute is not calling it: ``path.stem`` is a string, ``path.exists`` a bound
method. Only a function or method descriptor on the type is a method; a property, a slot or
an attribute the instance sets itself is data. Data of a value known exactly is computed when
its type is a plain value type whose attributes are pure (a path's parts, a date's fields);
any other data is unknown, with its type when the value computed says it.

The types are the standard library's own (never the user's code), read through the
``__dict__`` of each class of their MRO, as :func:`inspect.getattr_static` does: no property,
descriptor or ``__getattr__`` runs to tell what an attribute is.
"""

from __future__ import annotations

import functools
import importlib
import sys
import types
from typing import Any, Literal

from evalsubmit.analysis.values.domain import Known, Origin, Unknown, Value

MemberKind = Literal["method", "data", "absent"]

_METHODS = (
    types.FunctionType,
    types.BuiltinFunctionType,
    types.MethodDescriptorType,
    types.WrapperDescriptorType,
    types.ClassMethodDescriptorType,
    types.MethodWrapperType,
    classmethod,
    staticmethod,
)
"""What a method is in a class's ``__dict__`` (Python functions, C methods, slot wrappers)."""

_PURE_TYPES = frozenset(
    {
        "builtins.str",
        "builtins.bytes",
        "builtins.int",
        "builtins.float",
        "builtins.complex",
        "pathlib.PurePath",
        "datetime.date",
        "datetime.time",
        "datetime.timedelta",
        "decimal.Decimal",
        "fractions.Fraction",
        "uuid.UUID",
    }
)
"""Immutable value types whose data attributes are pure and cheap to read (``PurePath``'s
properties never touch the file system; ``date.year`` is a slot), by name: a known value of
one was built by its module, so none is imported here."""

_RESULT_TYPES = _PURE_TYPES | {"builtins.bool", "builtins.NoneType"}
"""What a computed attribute may be to stay a known value (plain scalars, as literals are)."""


def _is_a(obj: object, names: frozenset[str]) -> bool:
    return any(f"{cls.__module__}.{cls.__qualname__}" in names for cls in type(obj).__mro__)


@functools.lru_cache(maxsize=1024)
def member_kind(owner: type, name: str) -> MemberKind:
    """Whether ``name`` read on an instance of ``owner`` is a bound method, data, or not an
    attribute of the type (the instance may still set it: a ``SimpleNamespace`` field)."""
    for cls in owner.__mro__:  # the class attribute an instance's lookup would find
        if name in cls.__dict__:
            return "method" if isinstance(cls.__dict__[name], _METHODS) else "data"
    return "absent"


@functools.lru_cache(maxsize=256)
def stdlib_class(qualname: str) -> type | None:
    """The standard-library class ``module.Name`` (``logging.Logger``), or None. Only modules
    of the standard library are imported (this runs none of the user's code)."""
    module, _, attribute = qualname.rpartition(".")
    if not module or module.split(".")[0] not in sys.stdlib_module_names:
        return None
    try:
        found = getattr(importlib.import_module(module), attribute, None)
    except ImportError:
        return None
    return found if isinstance(found, type) else None


def known_data(obj: Any, name: str, origin: Origin | None) -> Value:
    """``obj.name`` for a data attribute of a value known exactly: computed when the value's
    type is pure and the result a plain scalar, else unknown (with its type when computed)."""
    if name.startswith("_") or not _is_a(obj, _PURE_TYPES):
        return Unknown(f"the attribute .{name}, read at run time")
    try:
        found = getattr(obj, name)
    except Exception:  # an attribute that raises fails at run time too: not known here
        return Unknown(f"the attribute .{name}, read at run time")
    if _is_a(found, _RESULT_TYPES):
        return Known(found, origin)
    return Unknown(f"the attribute .{name}", type(found).__name__)
