"""What has no JSON form, and the JSON a preview shows.

A config field or taskset argument holding a function, a class, a module or an instance of a
plain class cannot be sent: :func:`object_refusal` says why (and stays silent where the form
is only unknown). :func:`render_json` writes what is known as pydantic would serialise it,
markers of unknown parts left as text.
"""

from __future__ import annotations

from typing import Any

from evalsubmit.analysis.models import stdlib
from evalsubmit.analysis.values.domain import Instance, Value
from evalsubmit.analysis.values.objects import (
    ClassValue,
    FunctionValue,
    ModuleValue,
    PartialValue,
    UserClass,
)
from evalsubmit.sdk.names import is_sdk_name


def object_refusal(value: Value) -> str | None:
    """Why an object-like value (a function, class, module or instance) has no JSON form (and
    is no string either), or ``None`` when its form is just unknown."""
    match value:
        case PartialValue():
            return "a functools.partial"
        case FunctionValue(node=None, name=name):
            return f"a {name}"
        case FunctionValue(cached=True, name=name):
            return f"the cached function {name}"
        case FunctionValue(name="<lambda>"):
            return "a lambda"
        case FunctionValue(name=name):
            return f"the function {name}"
        case ModuleValue(qualname=qualname):
            return f"the module {qualname}"
        case ClassValue(ref=ref):
            return _class_refusal(ref.qualname, user=ref.user is not None)
        case Instance(ref=ref):
            refused = stdlib.is_refused_instance(value)
            if refused:
                return refused
            user = ref.user
            if user is not None and not _serialisable_user_class(user):
                return f"an instance of {user.name} (a plain class, not a dataclass or model)"
    return None


_BUILTIN_TYPES = frozenset(
    {
        *("float", "int", "str", "bool", "dict", "list", "tuple", "set", "bytes"),
        *("object", "type", "frozenset", "complex", "bytearray", "range"),
    }
)


def _class_refusal(qualname: str, *, user: bool) -> str | None:
    """Why an imported name itself (not a value it builds) has no JSON form, when what it is
    is known: the user's class, an SDK class, a builtin, or a standard-library class or
    function. An attribute of a module that is not known to be either (``os.sep`` is a
    string) stays unknown."""
    name = qualname.rsplit(".", 1)[-1]
    if user or is_sdk_name(qualname):
        return f"the class {name}"
    if qualname.startswith("builtins."):
        if not name[:1].isupper() and name not in _BUILTIN_TYPES:
            return f"the builtin function {name}"
        return f"the class {name}"
    from evalsubmit.analysis.models.stdlib_kinds import stdlib_kind  # a rare question

    kind = stdlib_kind(qualname)
    return f"the {kind} {name}" if kind is not None else None


def _serialisable_user_class(user: UserClass) -> bool:
    def named(values: list[Value], *names: str) -> bool:
        for item in values:
            target = item
            if isinstance(target, ClassValue) and target.ref.qualname.endswith(names):
                return True
            if isinstance(target, ClassValue) and target.ref.user is not None:
                return True  # a user base: its form is not worth guessing
            if not isinstance(target, ClassValue):
                return True  # unknown base or decorator: unknown, not refused
        return False

    return named(user.decorators, "dataclass", "dataclasses.dataclass") or named(
        user.bases,
        "BaseModel",
        "NamedTuple",
        "TypedDict",
        "Enum",
        "IntEnum",
        "StrEnum",
        "str",
        "int",
        "dict",
        "list",
    )


def json_key(key: Any) -> Any:
    """A dict key as JSON writes it: a string, a number, a bool or null as itself, any other
    key as its text."""
    return key if isinstance(key, (str, int, float, bool)) or key is None else str(key)


def render_json(value: Any) -> Any:
    """JSON for a preview: known parts converted as pydantic would, markers left as text."""
    import pydantic_core

    try:
        return pydantic_core.to_jsonable_python(value, fallback=_fallback)
    except (ValueError, TypeError, pydantic_core.PydanticSerializationError):
        return _sanitised(value)


def _fallback(value: Any) -> str:
    return f"<{type(value).__name__}>"


def _sanitised(value: Any) -> Any:
    """Render what pydantic cannot (non-UTF-8 bytes, odd keys) piece by piece."""
    if isinstance(value, dict):
        return {json_key(k): _sanitised(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [_sanitised(v) for v in value]
    import pydantic_core

    try:
        return pydantic_core.to_jsonable_python(value, fallback=_fallback)
    except (ValueError, TypeError, pydantic_core.PydanticSerializationError):
        return f"<error: {type(value).__name__} with no JSON form>"
