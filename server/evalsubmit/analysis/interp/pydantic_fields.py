"""What a user's pydantic model surely holds after construction.

pydantic validates what the constructor is given: validators (``@field_validator``...) may
change it, ``model_config`` may strip or lower-case strings, a ``list[int]`` field turns a
generator into a list, an alias makes the field's own name an ignored keyword, and a
``BaseSettings`` field the call does not set is read from the environment. A value is taken as
written only where pydantic surely keeps it: a plain field of a model that nothing transforms,
annotated with the value's exact scalar type (or ``X | None`` given ``None``). Any other field
is unknown, with the type its annotation guarantees when that is simple (``list[int]`` is a
list) — never a guess at what validation made of it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.record_classes import declared_fields
from evalsubmit.analysis.interp.spelling import spelled_name
from evalsubmit.analysis.values.domain import DictValue, Known, Unknown, Value
from evalsubmit.analysis.values.objects import CallArgs, ClassValue, PydanticKind, UserClass

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter

MAX_DEPTH = 10
_MODEL_ROOTS = ("BaseModel",)
_SETTINGS_ROOTS = ("BaseSettings",)

# decorators of methods that surely change no field value nor its JSON form (any other may
# be a validator or a serializer: field_validator, model_validator, field_serializer...)
_PLAIN_DECORATORS = frozenset(
    {"property", "cached_property", "classmethod", "staticmethod", "computed_field"}
)
_TRANSFORMING_METHODS = frozenset(
    # settings_customise_sources may rank the environment above the call's keywords
    {"model_post_init", "__post_init__", "__init__", "__new__", "settings_customise_sources"}
)

# model_config keys that keep every validated value as given (the others may transform it:
# str_strip_whitespace, str_to_lower, coerce_numbers_to_str, validate_default...)
_NEUTRAL_CONFIG = frozenset(
    {
        *("extra", "frozen", "populate_by_name", "arbitrary_types_allowed", "title"),
        *("protected_namespaces", "use_attribute_docstrings", "strict", "validate_assignment"),
        # pydantic-settings: where values come from, not what becomes of them
        *("env_prefix", "env_file", "env_file_encoding", "case_sensitive", "secrets_dir"),
        *("env_nested_delimiter", "env_ignore_empty"),
    }
)
_CONFIG_FACTORIES = frozenset({"ConfigDict", "SettingsConfigDict", "dict"})

# Field(...) keywords that leave the value as given (constraints refuse, never change it)
_NEUTRAL_FIELD = frozenset(
    {
        *("default", "default_factory", "description", "title", "examples", "repr"),
        *("json_schema_extra", "ge", "gt", "le", "lt", "multiple_of", "min_length"),
        "max_length",
    }
)

_EXACT_SCALARS: dict[str, type] = {
    "builtins.str": str,
    "builtins.int": int,
    "builtins.float": float,
    "builtins.bool": bool,
}
_CONTAINERS = {
    **{f"builtins.{n}": n for n in ("list", "tuple", "dict", "set", "frozenset")},
    **{"typing.List": "list", "typing.Tuple": "tuple", "typing.Dict": "dict"},
    **{"typing.Set": "set", "typing.FrozenSet": "frozenset"},
}
"""Annotations whose validated value is surely of that container type (``Sequence[int]``
is not: pydantic keeps a tuple a tuple)."""


def pydantic_kind(bases: list[Value]) -> PydanticKind | None:
    """Whether a class with ``bases`` is a pydantic model (or a pydantic-settings
    ``BaseSettings``), through any depth of the user's own base classes (bounded)."""
    pending = list(bases)
    seen = 0
    kind: PydanticKind | None = None
    while pending and seen < MAX_DEPTH * 4:
        base = pending.pop(0)
        seen += 1
        if not isinstance(base, ClassValue):
            continue
        if base.ref.user is not None:
            pending.extend(base.ref.user.bases)
        elif base.ref.qualname.endswith(_SETTINGS_ROOTS):
            return "settings"
        elif base.ref.qualname.endswith(_MODEL_ROOTS):
            kind = "model"
    return kind


def model_fields(
    interp: Interpreter,
    kind: PydanticKind,
    classes: list[UserClass],
    args: CallArgs,
    field_default: Callable[[ast.expr], Value],
) -> dict[str, Value]:
    """The fields of a pydantic model built with ``args`` (keywords only: pydantic takes no
    positional argument), each as surely kept, else unknown. ``classes`` is the model's user
    classes, the model first; ``field_default`` evaluates a default as written."""
    model = classes[0]
    if model.model_neutral is None:
        model.model_neutral = _neutral(classes)
    neutral = model.model_neutral
    values: dict[str, Value] = {}
    for name, statement in declared_fields(classes).items():
        if name.startswith("_") or _is_classvar(interp, statement.annotation):
            continue  # a private attribute or a class variable: not a field
        plain = neutral and _plain_field(statement.value)
        if name in args.keywords:
            given = args.keywords[name]
            if plain and _kept(interp, statement.annotation, given):
                values[name] = given
            elif plain and isinstance(given, DictValue) and _bare_dict(interp, statement):
                # a bare ``dict`` takes any keys and values: a copy of the dict, as given
                values[name] = DictValue(given.entries, given.origin, given.complete)
            else:
                values[name] = typed_unknown(interp, statement.annotation)
            continue
        default = _default_expression(statement.value)
        if args.star_unknown or kind == "settings" or not plain or default is None:
            # **kwargs may set it; a settings field may come from the environment; a required
            # field not given fails validation
            values[name] = typed_unknown(interp, statement.annotation)
        else:
            values[name] = field_default(default)
    return values


def _neutral(classes: list[UserClass]) -> bool:
    """Whether nothing in the model's classes (the model first) may change what its fields
    are given."""
    known = {id(c) for c in classes}
    # a user base left out of ``classes`` (the walk is bounded) may transform: not neutral
    complete = all(
        b.ref.user is None or id(b.ref.user) in known
        for c in classes
        for b in c.bases
        if isinstance(b, ClassValue)
    )
    return complete and not any(_transforms(c) for c in classes)


def _transforms(cls: UserClass) -> bool:
    """Whether the class may change what its fields are given: validators, serializers,
    construction hooks, a transforming (or unreadable) configuration, class keywords
    (``class M(BaseModel, str_to_lower=True)``), a base that is neither pydantic's nor the
    user's (a mixin may bring validators)."""
    node = cls.node
    if node.keywords:
        return True
    for base in cls.bases:
        if not isinstance(base, ClassValue):
            return True
        if base.ref.user is None and not base.ref.qualname.endswith(_MODEL_ROOTS + _SETTINGS_ROOTS):
            return True
    for statement in node.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if statement.name in _TRANSFORMING_METHODS:
                return True
            if any(spelled_name(d) not in _PLAIN_DECORATORS for d in statement.decorator_list):
                return True  # a validator, or a decorator that may be one
        elif isinstance(statement, ast.ClassDef) and statement.name == "Config":
            return True  # pydantic v1 style configuration: not read
        elif _assigns_model_config(statement) and not _neutral_config(statement):
            return True
    return False


def _assigns_model_config(statement: ast.stmt) -> bool:
    if isinstance(statement, ast.Assign):
        return any(isinstance(t, ast.Name) and t.id == "model_config" for t in statement.targets)
    if isinstance(statement, ast.AnnAssign):
        return isinstance(statement.target, ast.Name) and statement.target.id == "model_config"
    return False


def _neutral_config(statement: ast.stmt) -> bool:
    """``model_config = ConfigDict(...)`` (or a dict literal) with neutral keys only."""
    value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
    if isinstance(value, ast.Call):
        if spelled_name(value.func) not in _CONFIG_FACTORIES or value.args:
            return False
        return all(k.arg in _NEUTRAL_CONFIG for k in value.keywords)
    if isinstance(value, ast.Dict):
        return all(isinstance(k, ast.Constant) and k.value in _NEUTRAL_CONFIG for k in value.keys)
    return False


def _plain_field(default: ast.expr | None) -> bool:
    """A field whose declaration keeps the value as given: no default, a plain default, or
    ``Field(...)`` with neutral keywords only (no alias, no ``validate_default``...)."""
    if not (isinstance(default, ast.Call) and spelled_name(default.func) == "Field"):
        return True
    return len(default.args) <= 1 and all(k.arg in _NEUTRAL_FIELD for k in default.keywords)


def _default_expression(default: ast.expr | None) -> ast.expr | None:
    """``Field(4)`` / ``Field(default=4)`` as the ``field(default=4)`` the dataclass reader
    understands; any other default as written; None for a required field (no default,
    ``Field(...)``, ``Field(description=...)``)."""
    if not (isinstance(default, ast.Call) and spelled_name(default.func) == "Field"):
        return default
    keywords = [k for k in default.keywords if k.arg in {"default", "default_factory"}]
    if default.args:
        keywords.append(ast.keyword(arg="default", value=default.args[0]))
    if not keywords or any(
        isinstance(k.value, ast.Constant) and k.value.value is Ellipsis for k in keywords
    ):
        return None
    call = ast.Call(func=ast.Name(id="field", ctx=ast.Load()), args=[], keywords=keywords)
    return ast.copy_location(call, default)


def _kept(interp: Interpreter, annotation: ast.expr, value: Value) -> bool:
    """Whether validating ``value`` against ``annotation`` surely returns it unchanged: a
    known value of exactly the annotated scalar type (no ``bool`` for ``int``, no ``int`` for
    ``float``: lax mode converts), or ``None`` for ``X | None`` / ``Optional[X]``."""
    if not isinstance(value, Known):
        return False
    for member in _optional_members(interp, annotation):
        if member is None:
            if value.obj is None:
                return True
            continue
        expected = _EXACT_SCALARS.get(_qualname(interp, member) or "")
        if expected is not None and type(value.obj) is expected:
            return True
    return False


def _bare_dict(interp: Interpreter, statement: ast.AnnAssign) -> bool:
    """``x: dict`` (or ``typing.Dict``) with no parameters: validation checks it is a dict and
    copies it, keys and values untouched."""
    return _qualname(interp, statement.annotation) in {"builtins.dict", "typing.Dict"}


def _optional_members(interp: Interpreter, annotation: ast.expr) -> list[ast.expr | None]:
    """``X`` -> [X]; ``X | None`` and ``Optional[X]`` -> [X, None] (None: the None type)."""
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        sides = [annotation.left, annotation.right]
        if any(_is_none(s) for s in sides):
            return [None if _is_none(s) else s for s in sides]
        return []
    if isinstance(annotation, ast.Subscript) and _qualname(interp, annotation.value) == (
        "typing.Optional"
    ):
        return [annotation.slice, None]
    return [annotation]


def typed_unknown(interp: Interpreter, annotation: ast.expr) -> Value:
    """A value validated against ``annotation``: of its type where that is simple."""
    members = _optional_members(interp, annotation)
    names: list[str] = []
    for member in members:
        if member is None:
            names.append("None")
            continue
        node = member.value if isinstance(member, ast.Subscript) else member
        qualname = _qualname(interp, node) or ""
        name = _CONTAINERS.get(qualname) or (
            qualname.removeprefix("builtins.") if qualname in _EXACT_SCALARS else None
        )
        if name is None:
            return Unknown("a field pydantic validated")
        names.append(name)
    if not names:
        return Unknown("a field pydantic validated")
    return Unknown("a field pydantic validated", "|".join(names))


def _is_classvar(interp: Interpreter, annotation: ast.expr) -> bool:
    node = annotation.value if isinstance(annotation, ast.Subscript) else annotation
    return _qualname(interp, node) == "typing.ClassVar"


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _qualname(interp: Interpreter, node: ast.expr) -> str | None:
    """The class an annotation names (string annotations are not read: unknown)."""
    with interp.silent():
        value = interp.eval(node)
    return value.ref.qualname if isinstance(value, ClassValue) else None
