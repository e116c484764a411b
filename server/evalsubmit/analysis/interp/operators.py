"""What Python's operators give on abstract values.

Arithmetic is computed only on small known constants, and bounded before it runs: ``"a" *
10**10`` or ``9 ** 10**9`` in the user's code must not allocate gigabytes or spin in the
checker. A path joined with ``/`` stays a path of unknown content. Truthiness (for ``if``,
``and``, ``or`` and conditional expressions) is known only when Python's answer is certain.
Kept apart from :mod:`.expressions` because none of it walks code: these are pure functions of
values.
"""

from __future__ import annotations

import ast
import enum
import operator
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path, PurePath
from typing import Any

from evalsubmit.analysis.interp.class_lookup import user_mro
from evalsubmit.analysis.values.dict_entries import Entries
from evalsubmit.analysis.values.domain import (
    DictValue,
    Instance,
    Known,
    Refused,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.env import ModuleSource
from evalsubmit.analysis.values.objects import (
    ClassRef,
    ClassValue,
    FunctionValue,
    ModuleValue,
    PartialValue,
    UserClass,
)

_BINOPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Pow: lambda base, exponent: _bounded_pow(base, exponent),
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: lambda left, right: _bounded_mul(left, right),
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
MAX_RESULT = 10_000
"""The longest string (or bytes, or path) computed statically; longer is unknown."""
NOT_NONE = "object"
"""The type of a value known only not to be None (no rule refuses it for its type)."""
_PLAIN_PERCENT = re.compile(r"%[sdr%]")
_ANY_PERCENT = re.compile(r"%")


def binary(node: ast.BinOp, left: Value, right: Value, source: ModuleSource) -> Value:
    """``left <op> right`` at ``node`` (in ``source``): the result when both are small known
    constants, a path of unknown content for ``path / ...``, else unknown."""
    if isinstance(node.op, ast.Mod) and isinstance(left, Known) and isinstance(left.obj, str):
        # only plain fields: "%999999999s" % x would allocate a gigabyte
        values = right if isinstance(right, SeqValue) else SeqValue(tuple, (right,))
        formatted = _percent(left, values)
        return Known(formatted, source.origin(node)) if formatted is not None else Unknown()
    if isinstance(node.op, ast.BitOr) and _plain_dict(left) and _plain_dict(right):
        # ``a | b``: a new dict, ``b``'s entries over ``a``'s, as ``{**a, **b}``
        entries = Entries()
        entries.unpack(left)
        entries.unpack(right)
        return entries.dict(source.origin(node))
    function = _BINOPS.get(type(node.op))
    known = isinstance(left, Known) and isinstance(right, Known)
    if function and known and _small(left.obj) and _small(right.obj):  # type: ignore[union-attr]
        try:
            result = function(left.obj, right.obj)  # type: ignore[union-attr]
        except Exception:  # any arithmetic failure only means the result is unknown
            return Unknown()
        if _small(result):
            return Known(result, source.origin(node))
    path = isinstance(left, Known) and isinstance(left.obj, Path)
    if isinstance(left, Unknown) and left.type_name in {"PosixPath", "WindowsPath"}:
        path = True
    if isinstance(node.op, ast.Div) and path:
        return Unknown("a path computed at run time", "PosixPath")
    if isinstance(node.op, ast.Div) and _pure_path(left) and _path_part(right):
        # ``PurePosixPath(...) / "x"`` is a pure path again: refused as its left side is
        assert isinstance(left, Refused)
        return replace(left, origin=source.origin(node), items=None)
    return Unknown()


_PURE_PATHS = frozenset({"pathlib.PurePosixPath", "pathlib.PureWindowsPath", "pathlib.PurePath"})


def _pure_path(value: Value) -> bool:
    return isinstance(value, Refused) and value.type_qualname in _PURE_PATHS


def _path_part(value: Value) -> bool:
    """What ``/`` joins to a path without failing: a str or a path, surely."""
    match value:
        case Known(obj=str() | PurePath()):
            return True
        case Unknown(type_name="str"):
            return True
    return False


def _plain_dict(value: Value) -> bool:
    """A dict whose ``|`` merges by key (a ``Counter``'s keeps the larger count)."""
    return isinstance(value, DictValue) and not value.default_on_missing


def augmented(node: ast.AugAssign, current: Value, operand: Value, source: ModuleSource) -> Value:
    """``target op= operand`` of an immutable value: ``target op operand`` at the statement
    (the expression made once per statement: a result's origin is kept by node)."""
    expression: ast.BinOp | None = getattr(node, "_evalsubmit_binary", None)
    if expression is None:
        expression = ast.copy_location(ast.BinOp(node.target, node.op, node.value), node)
        node._evalsubmit_binary = expression  # type: ignore[attr-defined]
    return binary(expression, current, operand, source)


def _percent(template: Value, values: SeqValue) -> str | None:
    """``"%s/%s" % (a, b)`` of known strings and numbers, with plain ``%s``/``%d``/``%r``
    only (a width such as ``%9999999s`` is never computed)."""
    if not (isinstance(template, Known) and isinstance(template.obj, str)):
        return None
    text = template.obj
    if len(_ANY_PERCENT.findall(text)) != len(_PLAIN_PERCENT.findall(text)):
        return None
    items = values.items if values.complete and values.kind is tuple else None
    if items is None or not all(
        isinstance(i, Known) and isinstance(i.obj, (str, int, float)) for i in items
    ):
        return None
    try:
        result = text % tuple(i.obj for i in items if isinstance(i, Known))
    except (TypeError, ValueError):
        return None
    return result if len(result) <= MAX_RESULT else None


def unary(node: ast.UnaryOp, operand: Value, source: ModuleSource) -> Value:
    """``<op> operand`` at ``node``: computed for a known number or bool, ``not`` for any
    value whose truthiness is certain, else unknown."""
    if isinstance(operand, Known) and isinstance(operand.obj, (int, float, bool)):
        if isinstance(node.op, ast.USub):
            return Known(-operand.obj, source.origin(node))
        if isinstance(node.op, ast.UAdd):
            return Known(+operand.obj, source.origin(node))
    if isinstance(node.op, ast.Not):
        truth = truthiness(operand)
        return Unknown() if truth is None else Known(not truth, source.origin(node))
    return Unknown()


_PLAIN = (str, int, float, bool, bytes, type(None))
_ORDERED: dict[type[ast.cmpop], Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
}


def compare(node: ast.Compare, operands: list[Value], source: ModuleSource) -> Value:
    """``a < b < c`` at ``node``: a known bool when every link is certain (``x is None`` of
    any value whose None-ness is known, ``==``/``<``/``in`` of plain literals), else
    unknown. Links are decided left to right, as Python short-circuits them."""
    for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
        holds = _link(op, left, right)
        if holds is None:
            return Unknown("depends on a comparison")
        if not holds:
            return Known(False, source.origin(node))
    return Known(True, source.origin(node))


def _link(op: ast.cmpop, left: Value, right: Value) -> bool | None:
    if isinstance(op, (ast.Is, ast.IsNot)):
        same = _is(left, right)
        return None if same is None else same is isinstance(op, ast.Is)
    if isinstance(op, (ast.In, ast.NotIn)):
        found = _contains(right, left)
        return None if found is None else found is isinstance(op, ast.In)
    compute = _ORDERED.get(type(op))
    if compute is None or not (_plain(left) and _plain(right)):
        return None
    try:
        return bool(compute(left.obj, right.obj))  # type: ignore[union-attr]
    except TypeError:  # `1 < "a"` raises when run: no path continues past it
        return None


def _plain(value: Value) -> bool:
    return isinstance(value, Known) and isinstance(value.obj, _PLAIN)


def _is(left: Value, right: Value) -> bool | None:
    """``left is right`` when one side is ``None``, or both are members of one enum (the
    identities code tests by value). Members of two enum classes are not compared: the same
    enum reached through two imports may have been built twice."""
    if isinstance(right, Known) and right.obj is None:
        return is_none(left)
    if isinstance(left, Known) and left.obj is None:
        return is_none(right)
    if (
        isinstance(left, Known)
        and isinstance(right, Known)
        and isinstance(left.obj, enum.Enum)
        and type(left.obj) is type(right.obj)
    ):
        return left.obj is right.obj
    return None


def is_none(value: Value) -> bool | None:
    """Whether the value is ``None``, when certain."""
    match value:
        case Known(obj=obj):
            return obj is None
        case Instance(maybe_none=maybe_none):
            return None if maybe_none else False
        case Unknown():
            types = value.types()
            if types is None or types & {"None", "NoneType"}:
                return None
            return False
    return False  # containers, classes, functions, modules and the like are never None


def _contains(container: Value, item: Value) -> bool | None:
    if not _plain(item):
        return None
    key = item.obj  # type: ignore[union-attr]
    if isinstance(container, Known) and isinstance(container.obj, (tuple, list, frozenset, set)):
        if all(isinstance(element, _PLAIN) for element in container.obj):
            return key in container.obj
        return None
    if isinstance(container, Known) and isinstance(container.obj, str):
        return key in container.obj if isinstance(key, str) else None
    if isinstance(container, SeqValue) and container.complete:
        if all(_plain(element) for element in container.items):
            return any(element.obj == key for element in container.items)  # type: ignore[union-attr]
        return None
    if isinstance(container, DictValue) and container.complete:
        keys = [entry.key for entry in container.entries]
        if all(_plain(k) for k in keys):
            return any(k.obj == key for k in keys)  # type: ignore[union-attr]
    return None


def boolean(is_or: bool, values: list[Value]) -> Value:
    """``a or b`` / ``a and b``: the operand Python would return, when truthiness is
    known up to it (``param or {}`` with ``param=None`` is the ``{}``)."""
    for value in values[:-1]:
        truth = truthiness(value)
        if truth is None:
            # `x or {}`: whichever operand it is, it is not None (an earlier one only when
            # truthy); `x and y` is not None when no operand may be None
            candidates = values if not is_or else values[-1:]
            if all(is_none(candidate) is False for candidate in candidates):
                return Unknown("depends on a condition", NOT_NONE)
            return Unknown("depends on a condition")
        if truth is is_or:
            return value
    return values[-1]


def truthiness(value: Value) -> bool | None:
    """``bool(value)`` when statically certain, else None."""
    match value:
        case Known(obj=obj):
            try:
                return bool(obj)
            except Exception:  # a __bool__ that raises: not certain
                return None
        case DictValue(entries=entries, complete=complete):
            return True if entries else (False if complete else None)
        case SeqValue(items=items, complete=True):
            return bool(items)
        case Instance(maybe_none=True):
            return None
        case Instance(ref=ClassRef(user=None)):
            return True  # SDK objects define neither __bool__ nor __len__
        case Instance(ref=ClassRef(user=UserClass() as user)):
            defines = {"__bool__", "__len__"} & {m for c in user_mro(user) for m in c.methods}
            known_bases = all(isinstance(b, ClassValue) for b in user.bases)
            return None if defines or not known_bases else True
        case FunctionValue() | ClassValue() | ModuleValue() | PartialValue():
            return True
    return None


def _bounded_mul(left: Any, right: Any) -> Any:
    """``left * right``, refusing a repeated str/bytes longer than ``MAX_RESULT`` before it is
    built (``"a" * 10**10`` would allocate 10 GB)."""
    for seq, count in ((left, right), (right, left)):
        repeated = isinstance(seq, (str, bytes)) and isinstance(count, int)
        if repeated and len(seq) * max(count, 0) > MAX_RESULT:
            raise OverflowError("repeated sequence too long to evaluate statically")
    return operator.mul(left, right)


def _bounded_pow(base: Any, exponent: Any) -> Any:
    if isinstance(exponent, (int, float)) and abs(exponent) <= 256:
        return base**exponent
    raise OverflowError("exponent too large to evaluate statically")


def _small(value: object) -> bool:
    if isinstance(value, (str, bytes)):
        return len(value) <= MAX_RESULT
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int):
        return value.bit_length() <= 4096
    if isinstance(value, PurePath):
        return len(str(value)) <= MAX_RESULT
    return isinstance(value, (float, complex))
