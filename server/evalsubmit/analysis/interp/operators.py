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
import operator
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import Any

from evalsubmit.analysis.interp.objects import user_mro
from evalsubmit.analysis.values.domain import (
    ClassRef,
    ClassValue,
    DictValue,
    FunctionValue,
    Instance,
    Known,
    ModuleValue,
    PartialValue,
    SeqValue,
    Unknown,
    UserClass,
    Value,
)
from evalsubmit.analysis.values.env import ModuleSource

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


def binary(node: ast.BinOp, left: Value, right: Value, source: ModuleSource) -> Value:
    """``left <op> right`` at ``node`` (in ``source``): the result when both are small known
    constants, a path of unknown content for ``path / ...``, else unknown."""
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
    return Unknown()


def unary(node: ast.UnaryOp, operand: Value, source: ModuleSource) -> Value:
    """``<op> operand`` at ``node``: computed for a known number or bool, else unknown."""
    if isinstance(operand, Known) and isinstance(operand.obj, (int, float, bool)):
        if isinstance(node.op, ast.USub):
            return Known(-operand.obj, source.origin(node))
        if isinstance(node.op, ast.UAdd):
            return Known(+operand.obj, source.origin(node))
        if isinstance(node.op, ast.Not):
            return Known(not operand.obj, source.origin(node))
    return Unknown()


def boolean(is_or: bool, values: list[Value]) -> Value:
    """``a or b`` / ``a and b``: the operand Python would return, when truthiness is
    known up to it (``param or {}`` with ``param=None`` is the ``{}``)."""
    for value in values[:-1]:
        truth = truthiness(value)
        if truth is None:
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
