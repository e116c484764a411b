"""What a config becomes on the wire, and which values have no JSON form.

:func:`derive_target_json` gives what the SDK sends for a runner built from a config: directly
when every value is plain JSON (strings, finite numbers, booleans, None, lists, tuples and dicts
with string keys), else step for step with the pydantic mirrors. :func:`find_unjsonable`
classifies the values that pass construction (``hydra_params`` is ``dict[str, Any]``) but cannot
travel as JSON (reference §6.4). Nothing here imports or runs user code: it only ever sees Python
objects the caller built itself.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import functools
import io
import math
import os
import pathlib
import sys
import types
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, Literal

from evalsubmit.sdk import constraints
from evalsubmit.sdk.constraints import CheckedConfig
from evalsubmit.sdk.spec import WIRE_ONLY_DEFAULTS
from evalsubmit.sdk.validation import format_path, short_repr

if TYPE_CHECKING:
    from evalsubmit.sdk.models import GymRuntimeConfigModel

FieldPath = tuple[str | int, ...]
UnjsonableKind = Literal["refused", "iterator", "non-utf8"]
JsonTrouble = tuple[FieldPath, str, UnjsonableKind]


class UnserializableConfig(Exception):
    """The runner's config has no JSON form (the SDK's ``UnsubmittableRunnerError`` case, and the
    ``UnicodeDecodeError`` / ``io.UnsupportedOperation`` crashes that escape its probe)."""

    def __init__(self, path: FieldPath, reason: str) -> None:
        super().__init__(f"{format_path(path)}: {reason}")
        self.path = path
        self.reason = reason


def derive_target_json(config: CheckedConfig | GymRuntimeConfigModel) -> dict[str, Any]:
    """``runner_to_target(GymAgentTaskRunner(config=config)).model_dump(mode="json")``.

    A config of plain JSON values is re-checked by the tables (the SDK re-validates it as the
    wire target: a config mutated after construction may no longer be valid) and written out
    directly. Any other goes the SDK's steps with the mirrors: a target built from the config's
    Python-mode dump, one JSON probe dump, then the dump that is returned (so one-shot iterators
    come out as ``[]``, as they are sent). A ``ValidationError`` of the target propagates.
    """
    if isinstance(config, CheckedConfig):
        values = config.values()
    else:
        values = {name: getattr(config, name) for name in constraints.CONFIG_FIELDS}
    plain = plain_target_json(values)
    if plain is not None:
        return plain
    return _target_json_by_mirror(values)


def plain_target_json(values: dict[str, Any]) -> dict[str, Any] | None:
    """The wire target's JSON for config ``values`` that the tables accept and that hold only
    plain JSON values; ``None`` otherwise (the mirrors then decide)."""
    checked = constraints.check(values)
    if checked is None or checked[1]:
        return None
    valid = checked[0]
    if not all(_plain(value, 0) for value in valid.values()):
        return None
    target: dict[str, Any] = {"kind": "gym"}
    for name in _TARGET_ORDER:
        if name in WIRE_ONLY_DEFAULTS:
            target[name] = _json(WIRE_ONLY_DEFAULTS[name])
        else:
            target[name] = _json(valid[name])
    return target


_TARGET_ORDER = (
    "environment",
    *constraints.CONFIG_FIELDS[:7],
    "agent_ref_name",
    "env_secrets",
    *constraints.CONFIG_FIELDS[7:],
)
"""``GymRunnerTarget``'s fields after ``kind`` (reference §6.3; the contract test checks it)."""
_PLAIN_DEPTH = 64


def _plain(value: Any, depth: int) -> bool:
    """Whether pydantic's JSON dump of ``value`` is ``value`` itself (tuples as lists)."""
    kind = type(value)
    if kind is str:
        return bool(value.isascii()) or _utf8(value)
    if kind is bool or value is None:
        return True
    if kind is int:
        return bool(abs(value) < 2**62)
    if kind is float:
        return math.isfinite(value)
    if depth >= _PLAIN_DEPTH:
        return False
    if kind is list or kind is tuple:
        return all(_plain(item, depth + 1) for item in value)
    if kind is dict:
        return all(
            type(key) is str and _plain(key, depth) and _plain(item, depth + 1)
            for key, item in value.items()
        )
    return False


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _json(value: Any) -> Any:
    """A copy of a plain value as JSON holds it (tuples become lists)."""
    if isinstance(value, dict):
        return {key: _json(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_json(item) for item in value]
    return value


def _target_json_by_mirror(values: dict[str, Any]) -> dict[str, Any]:
    import pydantic_core

    from evalsubmit.sdk.models import GymRunnerTargetModel, GymRuntimeConfigModel

    config = GymRuntimeConfigModel.model_construct(**values)
    target = GymRunnerTargetModel(**config.model_dump())
    troubles = find_unjsonable(config.hydra_params, ("hydra_params",))
    try:
        target.model_dump(mode="json")
    except (pydantic_core.PydanticSerializationError, ValueError, TypeError, OSError) as exc:
        bad = [t for t in troubles if t[2] != "iterator"]
        path, reason = (bad[0][0], bad[0][1]) if bad else (("hydra_params",), str(exc))
        raise UnserializableConfig(path, reason) from exc
    return target.model_dump(mode="json")


_FINE_LEAVES: tuple[type, ...] = (str, int, float, type(None))
_REFUSED_TYPES: tuple[tuple[type | tuple[type, ...], str], ...] = (
    (range, "a range is not JSON; wrap it in list(...)"),
    (
        (type({}.keys()), type({}.values()), type({}.items())),
        "a dict view is not JSON; wrap it in list(...)",
    ),
    (type(os.environ), "os.environ is not JSON; use dict(os.environ) or pick the variables"),
    (
        (collections.UserDict, collections.ChainMap, types.MappingProxyType),
        "this mapping type is not JSON; use dict(...)",
    ),
    (collections.UserList, "a collections.UserList is not JSON; use list(...)"),
    (collections.UserString, "a collections.UserString is not JSON; use str(...)"),
    ((memoryview,), "a memoryview is not JSON; use bytes(...).decode() or a list"),
    (types.ModuleType, "a module has no JSON form"),
    (BaseException, "an exception object has no JSON form"),
    (slice, "a slice has no JSON form"),
)
_CALLABLES: tuple[type, ...] = (types.FunctionType, types.BuiltinFunctionType, types.MethodType)
_CALLABLES += (functools.partial, types.BuiltinMethodType, staticmethod, classmethod, property)
_SYNC_TYPE_NAMES = frozenset(
    {"lock", "RLock", "Event", "Condition", "Semaphore", "BoundedSemaphore", "Barrier"}
)


def find_unjsonable(value: object, path: FieldPath = ()) -> list[JsonTrouble]:
    """Every place inside ``value`` (dicts, lists, tuples, sets, dataclasses, at any depth) whose
    JSON serialisation fails or is silently wrong, as ``(path, reason, kind)``.

    ``kind`` is ``"refused"`` (the SDK raises ``UnsubmittableRunnerError`` or another exception),
    ``"iterator"`` (drained by the SDK's probe: sent as ``[]``) or ``"non-utf8"`` (bytes that
    are not UTF-8: ``UnicodeDecodeError``). Never consumes an iterator.
    """
    out: list[JsonTrouble] = []
    _walk(value, path, out, depth=0)
    return out


def _walk(value: object, path: FieldPath, out: list[JsonTrouble], depth: int) -> None:
    if depth > 200:
        return
    if isinstance(value, _FINE_LEAVES) and not isinstance(value, enum.Enum):
        return
    if isinstance(value, bytes | bytearray):
        try:
            bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            out.append((path, "bytes that are not valid UTF-8 cannot be sent", "non-utf8"))
        return
    if isinstance(value, enum.Enum):
        _walk(value.value, path, out, depth + 1)
        return
    if isinstance(value, dict):
        for key, item in value.items():
            key_trouble = _key_trouble(key)
            if key_trouble is not None:
                out.append((path, key_trouble, "refused"))
            _walk(item, (*path, key if isinstance(key, str | int) else repr(key)), out, depth + 1)
        return
    if isinstance(value, list | tuple | set | frozenset | collections.deque):
        for index, item in enumerate(value):
            _walk(item, (*path, index), out, depth + 1)
        return
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            _walk(getattr(value, f.name), (*path, f.name), out, depth + 1)
        return
    if _is_pydantic_model(value):
        for name in type(value).model_fields:  # type: ignore[attr-defined]
            _walk(getattr(value, name, None), (*path, name), out, depth + 1)
        return
    if isinstance(value, io.IOBase):
        if not _readable(value):
            out.append((path, "an unreadable stream cannot be serialised", "refused"))
        else:
            out.append((path, "an open file/stream is read once and sent as []", "iterator"))
        return
    if isinstance(value, Iterator):
        out.append(
            (path, f"a one-shot {_type_name(value)} is sent as []; use list(...)", "iterator")
        )
        return
    reason = _refused_reason(value)
    if reason is not None:
        out.append((path, reason, "refused"))


def _is_pydantic_model(value: object) -> bool:
    """``isinstance(value, pydantic.BaseModel)`` without importing pydantic: while it is not
    loaded, no object can be an instance of one of its models."""
    main = sys.modules.get("pydantic.main")
    return main is not None and isinstance(value, main.BaseModel)


def _readable(stream: io.IOBase) -> bool:
    try:
        return bool(stream.readable())
    except Exception:
        return False


def _type_name(value: object) -> str:
    name = type(value).__name__
    return {"generator": "generator", "map": "map(...)", "zip": "zip(...)"}.get(name, name)


def _key_trouble(key: object) -> str | None:
    if isinstance(key, str | int | float | type(None)):
        return None
    import pydantic_core

    try:
        pydantic_core.to_json({key: None})
    except Exception:
        return f"dict key {short_repr(key)} has no JSON form"
    return None


_JSONABLE_TYPES: tuple[tuple[str, str], ...] = (
    ("pathlib", "PosixPath"),
    ("pathlib", "WindowsPath"),
    ("pathlib._local", "PosixPath"),
    ("pathlib._local", "WindowsPath"),
    ("datetime", "datetime"),
    ("datetime", "date"),
    ("datetime", "time"),
    ("datetime", "timedelta"),
    ("decimal", "Decimal"),
    ("uuid", "UUID"),
)
"""Standard types that pydantic serialises to JSON (the contract test checks each): deciding
them here keeps pydantic unloaded for a ``Path`` or a ``datetime`` inside ``hydra_params``."""


def _surely_jsonable(value: Any) -> bool:
    kind = type(value)
    for module, name in _JSONABLE_TYPES:
        loaded = sys.modules.get(module)
        if loaded is not None and getattr(loaded, name, None) is kind:
            if name.endswith("Path"):  # a non-UTF-8 file name has no JSON form
                return _utf8(str(value))
            if name in {"datetime", "time"}:  # a tzinfo of one's own may fail: pydantic decides
                return (
                    value.tzinfo is None or type(value.tzinfo) is sys.modules["datetime"].timezone
                )
            return True
    return False


def _refused_reason(value: object) -> str | None:
    if isinstance(value, type):
        return f"the class {value.__name__} itself has no JSON form; instantiate it or use a string"
    if isinstance(value, _CALLABLES):
        return "a function/callable has no JSON form; pass data, not code"
    for kinds, reason in _REFUSED_TYPES:
        if isinstance(value, kinds):
            return reason
    if isinstance(value, pathlib.PurePath) and not isinstance(value, pathlib.Path):
        return "a pure path is not JSON (only concrete Path is); use str(...)"
    if type(value).__name__ in _SYNC_TYPE_NAMES:
        return "a synchronisation object has no JSON form"
    if _surely_jsonable(value):
        return None
    import pydantic_core

    try:
        pydantic_core.to_json(value)
    except Exception:
        return f"a {_type_name(value)} object has no JSON form"
    return None
