"""Values from type annotations: the best known type of a value whose content is unknown.

A parameter or return typed with a class is an instance of it (an SDK class: its identity is
what the rules need; a user class: what its construction surely stores); ``Optional[X]`` and
``X | None`` are an X that may be None; ``tuple[A, B]`` is a pair; ``list[X]``, ``set[X]``,
``Sequence[X]`` are containers whose elements are X, ``dict[K, V]`` one whose values are V;
``str``/``int``/``Path``... are values of that type; string annotations are parsed. Anything
else is unknown.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from evalsubmit.analysis.values.domain import Instance, SeqValue, Unknown, Value, typed_instance
from evalsubmit.analysis.values.objects import ClassValue
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


_OPTIONAL = frozenset({"typing.Optional"})
_UNION = frozenset({"typing.Union"})
_SEQUENCES = frozenset(
    {
        "builtins.list",
        "builtins.set",
        "builtins.frozenset",
        "typing.List",
        "typing.Set",
        "typing.FrozenSet",
        "typing.Sequence",
        "typing.Iterable",
        "typing.Iterator",
        "typing.Collection",
        "collections.abc.Sequence",
        "collections.abc.Iterable",
        "collections.abc.Iterator",
        "collections.abc.Collection",
    }
)
_MAPPINGS = frozenset(
    {
        "builtins.dict",
        "typing.Dict",
        "typing.Mapping",
        "typing.MutableMapping",
        "collections.abc.Mapping",
        "collections.abc.MutableMapping",
    }
)

_TUPLES = frozenset({"builtins.tuple", "typing.Tuple"})
_WRAPPERS = frozenset({"typing.Annotated", "typing.Final", "typing.ClassVar"})
SCALARS = {
    "builtins.str": "str",
    "builtins.int": "int",
    "builtins.float": "float",
    "builtins.bool": "bool",
    "builtins.bytes": "bytes",
    "pathlib.Path": "PosixPath",
    "pathlib.PosixPath": "PosixPath",
    "uuid.UUID": "UUID",
    "datetime.datetime": "datetime",
    "datetime.date": "date",
    "decimal.Decimal": "Decimal",
}


def annotated_value(interp: Interpreter, annotation: ast.expr | None) -> Value:
    if annotation is None:
        return Unknown("a parameter")
    with interp.silent():
        return _typed(interp, annotation, depth=0)


def _typed(interp: Interpreter, node: ast.expr, depth: int) -> Value:
    if depth > 4:
        return Unknown("a parameter")
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return Unknown("a parameter")
    if isinstance(node, ast.Constant) and node.value is None:
        return Unknown("None", "None")
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        return _union(interp, [node.left, node.right], depth)
    if isinstance(node, ast.Subscript):
        return _generic(interp, node, depth)
    return of_class(interp, interp.eval(node))


def of_class(interp: Interpreter, kind: Value) -> Value:
    """A value of the class ``kind`` whose content is unknown."""
    if not isinstance(kind, ClassValue):
        return Unknown("a parameter")
    ref = kind.ref
    if ref.user is not None:
        return interp.generic_instance(kind)
    if ref.qualname in SCALARS:
        return Unknown("a parameter", SCALARS[ref.qualname])
    if sdk.is_sdk_name(ref.qualname):
        return typed_instance(ref)
    return Unknown("a parameter")


def _generic(interp: Interpreter, node: ast.Subscript, depth: int) -> Value:
    origin = interp.eval(node.value)
    name = origin.ref.qualname if isinstance(origin, ClassValue) else ""
    arguments = list(node.slice.elts) if isinstance(node.slice, ast.Tuple) else [node.slice]
    if name in _OPTIONAL:
        return _union(interp, [arguments[0], ast.Constant(None)], depth)
    if name in _UNION:
        return _union(interp, arguments, depth)
    if name in _WRAPPERS:
        return _typed(interp, arguments[0], depth + 1)
    if name in _SEQUENCES:
        return Unknown("a parameter", "list", _typed(interp, arguments[0], depth + 1))
    if name in _MAPPINGS and len(arguments) == 2:
        return Unknown("a parameter", "dict", _typed(interp, arguments[1], depth + 1))
    if name in _TUPLES:
        if (
            len(arguments) == 2
            and isinstance(arguments[1], ast.Constant)
            and arguments[1].value is Ellipsis
        ):
            return Unknown("a parameter", "tuple", _typed(interp, arguments[0], depth + 1))
        return SeqValue(tuple, tuple(_typed(interp, a, depth + 1) for a in arguments))
    return of_class(interp, origin)


def _union(interp: Interpreter, members: list[ast.expr], depth: int) -> Value:
    """``X | None`` is an X that may be None; unions of several types keep their names."""
    values = [_typed(interp, m, depth + 1) for m in members]
    none = [v for v in values if isinstance(v, Unknown) and v.type_name == "None"]
    others = [v for v in values if v not in none]
    if len(others) == 1 and none:
        only = others[0]
        if isinstance(only, Instance):
            return Instance(
                only.ref,
                only.args,
                only.origin,
                only.fields,
                only.attributes,
                maybe_none=True,
            )
        if isinstance(only, Unknown) and only.type_name and only.element is None:
            return Unknown("a parameter", f"{only.type_name}|None")
        return Unknown("a parameter")
    names = [v.type_name for v in values if isinstance(v, Unknown) and v.type_name]
    if len(names) == len(values):
        return Unknown("a parameter", "|".join(names))
    if all(isinstance(v, Instance) for v in values):
        return Unknown("a parameter", alternatives=tuple(values))
    return Unknown("a parameter")
