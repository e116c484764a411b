"""What ``GymRuntimeConfig`` enforces, as plain tables, and a check of them without pydantic.

Every check of a file that builds a ``GymRuntimeConfig(...)`` validates its arguments; importing
pydantic and building the mirror (:mod:`.models`) for that costs more than the rest of a small
check. :data:`GYM_CONFIG_RULES` holds what the mirror (and so the SDK) enforces, field by field:
type, required or default, bounds, ``extra="forbid"``; :func:`check` applies pydantic's lax-mode
rules to the values it decides exactly (builtin scalars and containers, paths, plain objects such
as the evaluator's stand-ins) and gives the same error locations, types and inputs as pydantic,
in the same order. For any other value (a ``Decimal``, an enum member, bytes, a ``str`` subclass,
a mapping that is not a ``dict``, a number past 62 bits, an unusual numeric string) it answers
``None`` and the caller validates with the mirror: the verdict is pydantic's either way.

The contract tests (``tests/contract/test_constraint_tables.py``) compare the tables with the
mirror and with the real SDK's model, and :func:`check` with both over generated values.
"""

from __future__ import annotations

import math
import pathlib
import re
from collections.abc import Callable, Mapping
from typing import Any, Literal

FieldPath = tuple[str | int, ...]
FieldKind = Literal["str", "bool", "int", "float", "dict[str, Any]", "dict[str, str]"]
RawError = dict[str, Any]
"""One error as pydantic's ``ValidationError.errors()`` gives it: ``loc``, ``type``, ``ctx``
(the bound, for bound errors) and ``input``."""


class FieldRule:
    """One field of ``GymRuntimeConfig``: ``kind`` is its type (``float`` with ``nullable`` is
    ``float | None``); ``ge``/``gt`` its bounds; ``default``/``default_factory`` when optional.
    (A plain class: a dataclass costs about a millisecond of start-up to create.)"""

    __slots__ = ("default", "default_factory", "ge", "gt", "kind", "name", "nullable", "required")

    def __init__(
        self,
        name: str,
        kind: FieldKind,
        *,
        required: bool = False,
        default: object = None,
        default_factory: Callable[[], object] | None = None,
        nullable: bool = False,
        ge: int | None = None,
        gt: float | None = None,
    ) -> None:
        self.name = name
        self.kind = kind
        self.required = required
        self.default = default
        self.default_factory = default_factory
        self.nullable = nullable
        self.ge = ge
        self.gt = gt

    def __repr__(self) -> str:
        return f"FieldRule({self.name!r}, {self.kind!r})"


GYM_CONFIG_RULES: tuple[FieldRule, ...] = (
    FieldRule("agent", "str", required=True),
    FieldRule("agent_config", "str", required=True),
    FieldRule("resources_server", "str", required=True),
    FieldRule("model_type", "str", default="inference_provider"),
    FieldRule("bind_resources_server", "bool", default=True),
    FieldRule("hydra_params", "dict[str, Any]", default_factory=dict),
    FieldRule("env_vars", "dict[str, str]", default_factory=dict),
    FieldRule("num_repeats", "int", default=1, ge=1),
    FieldRule("concurrency", "int", default=4, ge=1),
    FieldRule("startup_timeout_s", "float", default=240.0, gt=0.0),
    FieldRule("collection_timeout_s", "float", nullable=True, gt=0.0),
    FieldRule("shutdown_grace_s", "float", default=30.0, gt=0.0),
    FieldRule("reward_key", "str", default="reward"),
)
"""The fields in declaration order (the order of pydantic's errors and of the wire target)."""
EXTRA_FORBIDDEN = True
"""``model_config = ConfigDict(extra="forbid")``: any other keyword is an error."""

CONFIG_FIELDS: tuple[str, ...] = tuple(rule.name for rule in GYM_CONFIG_RULES)
WIRE_ONLY_FIELDS: frozenset[str] = frozenset(
    {"kind", "environment", "agent_ref_name", "env_secrets"}
)
GYM_CONFIG_RULES_BY_NAME: dict[str, FieldRule] = {rule.name: rule for rule in GYM_CONFIG_RULES}
_RULES = GYM_CONFIG_RULES_BY_NAME

_TRUE = frozenset({"1", "on", "t", "true", "y", "yes"})
_FALSE = frozenset({"0", "off", "f", "false", "n", "no"})
# compiled (and kept by re) for the first number written as a string
_INT_TEXT = r"[0-9]{1,18}"
_FLOAT_TEXT = r"[0-9]{1,15}(?:\.[0-9]{1,15})?"
_SMALL = 2**62
"""Numbers pydantic handles as 64-bit ones; past them its rules change (checked by pydantic)."""
_SIMPLE: dict[type, str] = {
    str: "str",
    bool: "bool",
    int: "int",
    float: "float",
    type(None): "none",
    dict: "dict",
    list: "container",
    tuple: "container",
    set: "container",
    frozenset: "container",
}
_PATHS = frozenset(
    {pathlib.PurePath, pathlib.PurePosixPath, pathlib.PureWindowsPath, pathlib.Path}
    | {type(pathlib.Path())}
)
_COERCING_DUNDERS = frozenset(
    {"__int__", "__float__", "__index__", "__complex__", "__len__", "__iter__", "__getitem__"}
)
"""A plain class defining none of these is refused by every field (no numeric conversion)."""


class _Undecided(Exception):
    """A value whose verdict the tables do not hold: pydantic decides."""


class CheckedConfig:
    """A valid ``GymRuntimeConfig``'s values as the model holds them (coerced, defaults filled),
    as attributes named like its fields. Mutable, like the SDK's model (assignment is not
    validated): the wire target re-validates (:func:`.serialization.derive_target_json`)."""

    __slots__ = (
        "agent",
        "agent_config",
        "bind_resources_server",
        "collection_timeout_s",
        "concurrency",
        "env_vars",
        "hydra_params",
        "model_type",
        "num_repeats",
        "resources_server",
        "reward_key",
        "shutdown_grace_s",
        "startup_timeout_s",
    )
    agent: str
    agent_config: str
    resources_server: str
    model_type: str
    bind_resources_server: bool
    hydra_params: dict[str, Any]
    env_vars: dict[str, str]
    num_repeats: int
    concurrency: int
    startup_timeout_s: float
    collection_timeout_s: float | None
    shutdown_grace_s: float
    reward_key: str

    def __init__(self, values: Mapping[str, Any]) -> None:
        for name in CONFIG_FIELDS:
            setattr(self, name, values[name])

    def values(self) -> dict[str, Any]:
        """The fields in declaration order (what ``model_dump()`` starts from)."""
        return {name: getattr(self, name) for name in CONFIG_FIELDS}

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, CheckedConfig):
            return NotImplemented
        return self.values() == other.values()

    __hash__ = None  # type: ignore[assignment]  # mutable, like the model

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={value!r}" for name, value in self.values().items())
        return f"CheckedConfig({fields})"


def check(data: Mapping[str, object]) -> tuple[dict[str, Any], list[RawError]] | None:
    """``GymRuntimeConfig.model_validate(data)`` by the tables: the validated values (every field,
    in order) and the errors as pydantic words them; ``None`` when a value is outside what the
    tables decide (validate with the mirror then)."""
    values: dict[str, Any] = {}
    errors: list[RawError] = []
    try:
        for key in data:
            if type(key) is not str:
                raise _Undecided
        for rule in GYM_CONFIG_RULES:
            if rule.name in data:
                values[rule.name] = _field(rule, data[rule.name], (rule.name,), errors)
            elif rule.required:
                errors.append(_error((rule.name,), "missing", data))
            elif rule.default_factory is not None:
                values[rule.name] = rule.default_factory()
            else:
                values[rule.name] = rule.default
        if EXTRA_FORBIDDEN:
            for key, value in data.items():
                if key not in _RULES:
                    errors.append(_error((key,), "extra_forbidden", value))
    except _Undecided:
        return None
    return values, errors


def _error(loc: FieldPath, kind: str, value: object, **ctx: object) -> RawError:
    return {"loc": loc, "type": kind, "ctx": ctx or None, "input": value}


def _shape(value: object) -> str:
    """The class of input the rules tell apart; raises :class:`_Undecided` for any other."""
    kind = type(value)
    shape = _SIMPLE.get(kind)
    if shape == "str" and not value.isascii():  # type: ignore[attr-defined]
        try:
            value.encode("utf-8")  # type: ignore[attr-defined]
        except UnicodeEncodeError:
            raise _Undecided from None  # a lone surrogate: ``string_unicode`` everywhere
    if shape is not None:
        return shape
    if kind in _PATHS:
        return "opaque"
    if (
        type(kind) is type
        and kind.__mro__ == (kind, object)
        and _COERCING_DUNDERS.isdisjoint(kind.__dict__)
        and not isinstance(value, Mapping)
    ):
        return "opaque"
    raise _Undecided


def _field(rule: FieldRule, value: object, loc: FieldPath, errors: list[RawError]) -> Any:
    shape = _shape(value)
    if rule.kind == "str":
        return _string(value, shape, loc, errors)
    if rule.kind == "bool":
        return _boolean(value, shape, loc, errors)
    if rule.kind == "int":
        return _integer(rule, value, shape, loc, errors)
    if rule.kind == "float":
        return _number(rule, value, shape, loc, errors)
    return _mapping(rule, value, shape, loc, errors)


def _string(value: object, shape: str, loc: FieldPath, errors: list[RawError]) -> Any:
    if shape != "str":
        errors.append(_error(loc, "string_type", value))
    return value


def _boolean(value: Any, shape: str, loc: FieldPath, errors: list[RawError]) -> Any:
    if shape == "bool":
        return value
    if shape == "int":
        if abs(value) >= _SMALL:
            raise _Undecided
        if value in (0, 1):
            return bool(value)
        errors.append(_error(loc, "bool_parsing", value))
    elif shape == "float":
        if value in (0.0, 1.0):
            return bool(value)
        if not math.isfinite(value) or not value.is_integer():
            errors.append(_error(loc, "bool_type", value))
        elif abs(value) < _SMALL:
            errors.append(_error(loc, "bool_parsing", value))  # 2.0: read as the integer 2
        else:
            raise _Undecided
    elif shape == "str":
        text = value.lower() if value.isascii() else value
        if text in _TRUE or text in _FALSE:
            return text in _TRUE
        errors.append(_error(loc, "bool_parsing", value))
    else:
        errors.append(_error(loc, "bool_type", value))
    return value


def _integer(
    rule: FieldRule, value: Any, shape: str, loc: FieldPath, errors: list[RawError]
) -> Any:
    number: int
    if shape in {"bool", "int"}:
        number = int(value)
    elif shape == "float":
        if not math.isfinite(value):
            errors.append(_error(loc, "finite_number", value))
            return value
        if abs(value) >= _SMALL:
            raise _Undecided
        if not value.is_integer():
            errors.append(_error(loc, "int_from_float", value))
            return value
        number = int(value)
    elif shape == "str":
        if re.fullmatch(_INT_TEXT, value):
            number = int(value)
        elif value == "" or (value.isascii() and value.isalpha()):
            errors.append(_error(loc, "int_parsing", value))
            return value
        else:
            raise _Undecided
    else:
        errors.append(_error(loc, "int_type", value))
        return value
    if rule.ge is not None and not number >= rule.ge:
        errors.append(_error(loc, "greater_than_equal", value, ge=rule.ge))
    return number


def _number(rule: FieldRule, value: Any, shape: str, loc: FieldPath, errors: list[RawError]) -> Any:
    number: float
    if shape == "none" and rule.nullable:
        return None
    if shape in {"bool", "int"}:
        if abs(value) >= _SMALL:
            raise _Undecided
        number = float(value)
    elif shape == "float":
        number = value
    elif shape == "str":
        if re.fullmatch(_FLOAT_TEXT, value):
            number = float(value)
        elif value == "" or (
            value.isascii()
            and value.isalpha()
            and "inf" not in value.lower()
            and "nan" not in value.lower()
        ):
            errors.append(_error(loc, "float_parsing", value))
            return value
        else:
            raise _Undecided
    else:
        errors.append(_error(loc, "float_type", value))
        return value
    if rule.gt is not None and not number > rule.gt:
        errors.append(_error(loc, "greater_than", value, gt=rule.gt))
    return number


def _mapping(
    rule: FieldRule, value: Any, shape: str, loc: FieldPath, errors: list[RawError]
) -> Any:
    if shape != "dict":
        errors.append(_error(loc, "dict_type", value))
        return value
    checked: dict[Any, Any] = {}
    for key, item in value.items():
        key_shape = _shape(key)
        if key_shape == "int":
            errors.append(_error((*loc, key, "[key]"), "string_type", key))
        elif key_shape != "str":
            raise _Undecided
        if rule.kind == "dict[str, str]":
            item = _string(item, _shape(item), (*loc, key), errors)
        checked[key] = item
    return checked
