"""Instances of the user's own classes, and methods of known strings, as abstract values.

A dataclass or pydantic-model instance serialises to an object of its fields; a ``NamedTuple``
to an array; a subclass of ``str``/``int``/``float`` to its base value. Other plain classes have
no JSON form (the rules say so) and are kept as :class:`Instance` for the runner protocol check.
"""

from __future__ import annotations

import ast
import enum
import re
import weakref
from typing import Any

from evalsubmit.analysis.values.dict_entries import named_entries
from evalsubmit.analysis.values.domain import (
    DictValue,
    Instance,
    Known,
    Origin,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.iterables import items_of
from evalsubmit.analysis.values.objects import (
    CallArgs,
    ClassRef,
    ClassValue,
    FunctionValue,
    UserClass,
)

_SCALAR_BASES: dict[str, type] = {"builtins.str": str, "builtins.int": int, "builtins.float": float}
_RECORD_DECORATORS = ("dataclass",)
_RECORD_BASES = ("BaseModel",)
_TUPLE_BASES = ("NamedTuple",)
MAX_STR = 100_000


def build_instance(ref: ClassRef, args: CallArgs, origin: Origin) -> Value:
    user = ref.user
    if user is None:
        return Instance(ref, args, origin)
    overrides = {"__init__", "__new__", "__post_init__"} & user.attributes
    base_names = [b.ref.qualname for b in user.bases if isinstance(b, ClassValue)]
    scalar = next((_SCALAR_BASES[n] for n in base_names if n in _SCALAR_BASES), None)
    if scalar is not None and not overrides:
        return _scalar(scalar, args, origin)
    instance = Instance(ref, args, origin)
    if overrides - {"__post_init__"}:
        return instance
    if any(n.endswith(_TUPLE_BASES) for n in base_names):
        values = _field_values(user, args)
        return SeqValue(tuple, tuple(values.values()), origin) if values is not None else instance
    record = any(_named(d, _RECORD_DECORATORS) for d in user.decorators) or any(
        n.endswith(_RECORD_BASES) for n in base_names
    )
    if record and "__post_init__" not in user.attributes:
        values = _field_values(user, args)
        if values is not None:
            # only a keyword writes a field's key (a default or a positional argument does
            # not): a finding about its value otherwise lands on the key holding the instance
            entries = named_entries(values, args.keyword_origins)
            instance.fields = DictValue(entries, origin)
    return instance


def namedtuple_instance(args: CallArgs, origin: Origin) -> Value:
    if args.star_unknown or args.keywords:
        return Unknown("a namedtuple built at run time", "tuple")
    return SeqValue(tuple, tuple(args.positional), origin)


def _scalar(kind: type, args: CallArgs, origin: Origin) -> Value:
    if len(args.positional) == 1 and not args.keywords:
        value = args.positional[0]
        if isinstance(value, Known) and isinstance(value.obj, (str, int, float)):
            try:
                return Known(kind(value.obj), origin)
            except (TypeError, ValueError):
                return Unknown(type_name=kind.__name__)
    return Unknown(type_name=kind.__name__)


def _field_values(user: UserClass, args: CallArgs) -> dict[str, Value] | None:
    """Field name -> value, in declaration order, from the call and the class defaults."""
    if args.star_unknown:
        return None
    declared: list[tuple[str, ast.expr | None]] = [
        (s.target.id, s.value)
        for s in user.node.body
        if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
    ]
    names = [name for name, _ in declared]
    values: dict[str, Value] = dict(zip(names, args.positional, strict=False))
    if len(args.positional) > len(names) or set(args.keywords) - set(names):
        return None
    values.update(args.keywords)
    for name, default in declared:
        if name in values:
            continue
        if isinstance(default, ast.Constant):
            values[name] = Known(default.value)
        else:
            return None
    return {name: values[name] for name in names}


def _named(value: Value, suffixes: tuple[str, ...]) -> bool:
    if isinstance(value, ClassValue):
        return value.ref.qualname.endswith(suffixes)
    return False


_STR_METHODS = {"upper", "lower", "strip", "lstrip", "rstrip", "title", "capitalize"}


def str_method(function: FunctionValue, args: CallArgs, origin: Origin) -> Value:
    """``",".join([...])``, ``"X".lower()`` on known strings; anything else is a str of unknown
    content."""
    base = function.bound_self
    method = function.name.removeprefix("bound method .").removesuffix("()")
    if not isinstance(base, Known) or not isinstance(base.obj, str):
        return Unknown("the result of a method call")
    text: str = base.obj
    if method == "join" and len(args.positional) == 1:
        items = items_of(args.positional[0])
        if items is not None and all(
            isinstance(i, Known) and isinstance(i.obj, str) for i in items
        ):
            joined = text.join(i.obj for i in items if isinstance(i, Known))
            if len(joined) <= MAX_STR:
                return Known(joined, origin)
    if method == "format":
        formatted = _format(text, args)
        if formatted is not None:
            return Known(formatted, origin)
    if method in _STR_AFFIXES and len(args.positional) == 1 and not args.keywords:
        affix = _affix(args.positional[0])
        if affix is not None and not args.star_unknown:
            return Known(getattr(text, method)(affix), origin)
    if method in _STR_METHODS and not args.positional and not args.keywords:
        result: Any = getattr(text, method)()
        return Known(result, origin)
    return Unknown("a string computed at run time", "str")


#: ``text.endswith(suffix)``: decided when the suffix (or each of a tuple's) is a known str.
_STR_AFFIXES = frozenset({"startswith", "endswith"})


def _affix(value: Value) -> str | tuple[str, ...] | None:
    """The prefix or suffix ``startswith``/``endswith`` is given, when known exactly."""
    match value:
        case Known(obj=str() as affix):
            return affix
        case Known(obj=tuple() as affixes) if all(isinstance(a, str) for a in affixes):
            return affixes
        case SeqValue(kind=kind, items=items, complete=True) if kind is tuple:
            known = [i.obj for i in items if isinstance(i, Known) and isinstance(i.obj, str)]
            return tuple(known) if len(known) == len(items) else None
    return None


_PLAIN_FIELD = re.compile(r"\{[A-Za-z0-9_]*\}")
_ANY_FIELD = re.compile(r"\{[^{}]*\}")


def _format(text: str, args: CallArgs) -> str | None:
    """``"{}/{}".format(a, b)`` of known strings and numbers, with plain fields only (no
    conversion or spec: ``{:>99999999}`` is never computed, nor ``{0.__class__}``)."""
    if args.star_unknown or "{{" in text or "}}" in text:
        return None
    if len(_ANY_FIELD.findall(text)) != len(_PLAIN_FIELD.findall(text)):
        return None
    values = [*args.positional, *args.keywords.values()]
    if not all(isinstance(v, Known) and isinstance(v.obj, (str, int, float)) for v in values):
        return None
    positional = [v.obj for v in args.positional if isinstance(v, Known)]
    keywords = {k: v.obj for k, v in args.keywords.items() if isinstance(v, Known)}
    try:
        result = text.format(*positional, **keywords)
    except (IndexError, KeyError, ValueError):
        return None
    return result if len(result) <= MAX_STR else None


_ENUM_BASES: dict[str, type[enum.Enum]] = {
    "enum.Enum": enum.Enum,
    "enum.IntEnum": enum.IntEnum,
    "enum.StrEnum": enum.StrEnum,
    "enum.Flag": enum.Flag,
    "enum.IntFlag": enum.IntFlag,
}
_MIXINS: dict[str, type] = {"builtins.str": str, "builtins.int": int, "builtins.float": float}


_VALUE_ORIGINS: weakref.WeakKeyDictionary[type, dict[str, Origin]] = weakref.WeakKeyDictionary()
"""Where each member's literal value is written, by the enum class evalsubmit built (one per
analysis of the class): a finding about ``member.value`` goes where the value is written."""


def enum_value_origin(member: enum.Enum) -> Origin | None:
    """Where the literal value of a user enum's member is written, if it is one of ours."""
    return _VALUE_ORIGINS.get(type(member), {}).get(member.name)


def note_value_origins(members: dict[str, object], origins: dict[str, Origin]) -> None:
    """Remember where the members' values are written (``enum_members``' result)."""
    for member in members.values():
        if isinstance(member, enum.Enum):
            _VALUE_ORIGINS[type(member)] = origins
            return


_ENUM_USER = "_evalsubmit_user_class"


def note_enum_class(members: dict[str, object], user: UserClass) -> None:
    """Keep the user class on the enum class evalsubmit built for its members, so a member
    finds the class's methods and properties (kept on the built class: nothing outlives it)."""
    for member in members.values():
        if isinstance(member, enum.Enum):
            setattr(type(member), _ENUM_USER, user)
            return


def enum_user_class(member: enum.Enum) -> UserClass | None:
    """The user class of an enum member evalsubmit built, if one of ours."""
    found = getattr(type(member), _ENUM_USER, None)
    return found if isinstance(found, UserClass) else None


def enum_members(node: ast.ClassDef, bases: list[Value]) -> dict[str, object]:
    """Members of a user ``Enum`` with literal values, as real enum members (built by
    evalsubmit from the literals, so their JSON is what pydantic would send)."""
    names = [b.ref.qualname for b in bases if isinstance(b, ClassValue)]
    base = next((_ENUM_BASES[n] for n in names if n in _ENUM_BASES), None)
    if base is None:
        return {}
    members: dict[str, object] = {}
    for statement in node.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Constant)
        ):
            members[statement.targets[0].id] = statement.value.value
    mixin = next((_MIXINS[n] for n in names if n in _MIXINS), None)
    try:
        factory: Any = base
        made: Any = (
            factory(node.name, members, type=mixin)
            if mixin and base is enum.Enum
            else factory(node.name, members)
        )
    except (TypeError, ValueError):
        return {}
    return {name: made[name] for name in members}
