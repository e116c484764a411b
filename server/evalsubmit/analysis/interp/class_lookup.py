"""Lookups through the user's class hierarchy: its classes in order, the SDK class a user class
behaves as, a method bound to its receiver, ``super().name``."""

from __future__ import annotations

from collections.abc import Iterator

from evalsubmit.analysis.values.domain import Value
from evalsubmit.analysis.values.objects import ClassRef, ClassValue, FunctionValue, UserClass
from evalsubmit.sdk import names as sdk

MAX_BASES = 10


def user_mro(cls: UserClass) -> Iterator[UserClass]:
    """The class and its user-class bases, depth first, each once (bounded)."""
    seen: set[int] = set()
    pending = [cls]
    while pending and len(seen) < MAX_BASES:
        current = pending.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        pending.extend(
            b.ref.user for b in current.bases if isinstance(b, ClassValue) and b.ref.user
        )


def sdk_class_of(ref: ClassRef) -> str:
    """The SDK class an instance behaves as: its own, or the first SDK base of a user class
    (``class TeamClient(NeMoPlatform)``)."""
    if ref.user is None:
        return ref.qualname
    for cls in user_mro(ref.user):
        for base in cls.bases:
            if not isinstance(base, ClassValue) or base.ref.user is not None:
                continue
            if sdk.is_sdk_name(base.ref.qualname):
                return base.ref.qualname
    return ref.qualname


def bound(method: FunctionValue, instance: Value) -> FunctionValue:
    """``instance.method``: the function with its receiver."""
    return FunctionValue(
        method.name,
        method.node,
        method.origin,
        method.module,
        instance,
        method.defaults,
        method.owner,
        method.closure,
        method.cached,
    )


def super_attribute(owner: ClassValue, receiver: Value, name: str) -> Value | None:
    """``super().name`` in a method of ``owner``: the first definition after ``owner`` in its
    user-class bases, bound to ``receiver``."""
    user = owner.ref.user
    if user is None:
        return None
    for cls in list(user_mro(user))[1:]:
        if name in cls.methods:
            return bound(cls.methods[name], receiver)
        if name in cls.class_values:
            return cls.class_values[name]
    return None
