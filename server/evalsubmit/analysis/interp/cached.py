"""Functions wrapped by ``functools.cache`` / ``lru_cache``.

The wrapper runs the body with the call's arguments and returns what it returns; what differs
is when and with what identity. A call first hashes its arguments: one that cannot be hashed (a
dict, a list, a ``GymRuntimeConfig``) raises ``TypeError`` before the body runs, so a call is
walked only when every argument surely hashes. A later call with equal arguments returns the
same object the first one did, while a walk builds a new value each time: a change made to the
first (a config field set, an entry stored) would be in the second. The walked value is
therefore kept only when nothing the engine follows can change in place; otherwise it is
unknown.
"""

from __future__ import annotations

from evalsubmit.analysis.values.domain import Instance, Known, SeqValue, Unknown, Value
from evalsubmit.analysis.values.objects import CallArgs, ClassValue, FunctionValue, ModuleValue
from evalsubmit.sdk import names as sdk

#: The cache decorators, used bare (``@functools.cache``, ``@lru_cache``) ...
CACHE_DECORATORS = frozenset({"functools.cache", "functools.lru_cache"})
#: ... or as factories (``@lru_cache(maxsize=8)``, ``@lru_cache()``).
CACHE_FACTORIES = frozenset({"functools.lru_cache"})

_HASHABLE_SCALARS = (str, int, float, complex, bool, bytes, type(None))
_MAX_DEPTH = 8


def surely_hashable(args: CallArgs) -> bool:
    """Whether every argument of the call is known to hash (then the body runs)."""
    if args.star_unknown:
        return False
    values = [*args.positional, *args.keywords.values()]
    return all(_hashes(value, 0) for value in values)


def _hashes(value: Value, depth: int) -> bool:
    if depth > _MAX_DEPTH:
        return False
    match value:
        case Known(obj=obj):
            return _scalar_or_tuple(obj, depth)
        case SeqValue(kind=kind, items=items, complete=True) if kind in (tuple, frozenset):
            return all(_hashes(item, depth + 1) for item in items)
        case ClassValue() | ModuleValue():
            return True
        case FunctionValue(bound_self=None):
            return True
    return False


def _scalar_or_tuple(obj: object, depth: int) -> bool:
    if isinstance(obj, _HASHABLE_SCALARS):
        return True
    if isinstance(obj, (tuple, frozenset)) and depth <= _MAX_DEPTH:
        return all(_scalar_or_tuple(item, depth + 1) for item in obj)
    return False


def cached_result(function: FunctionValue, value: Value) -> Value:
    """What a call of the cached ``function`` gives, its body walked to ``value``: the value,
    when no change in place the engine follows can make the object a later call returns
    differ from a new one; otherwise unknown."""
    if unchangeable(value):
        return value
    return Unknown(f"the cached result of {function.name}()")


def unchangeable(value: Value, depth: int = 0) -> bool:
    """Whether nothing the engine follows can change ``value`` in place (a change through
    another reference to it would not be in a copy of it)."""
    if depth > _MAX_DEPTH:
        return False
    match value:
        case SeqValue(kind=kind, items=items) if kind in (tuple, frozenset):
            return all(unchangeable(item, depth + 1) for item in items)
        case SeqValue():
            return False  # a list or set: its items are changed in place
        case Instance(ref=ref, args=args, attributes=attributes):
            # a user's object's attributes and a config's fields are set in place
            if ref.user is not None or ref.qualname == sdk.GYM_CONFIG or attributes:
                return False
            held = [*args.positional, *args.keywords.values()]
            return not args.star_unknown and all(unchangeable(v, depth + 1) for v in held)
        case Known(obj=obj):
            return not isinstance(obj, (list, dict, set, bytearray))
        case Unknown(element=None, alternatives=()):
            return True
        case ClassValue() | ModuleValue() | FunctionValue():
            return True
    return False  # a dict (entries stored in place), an iterator, anything else
