"""Narrowing: what a branch condition says about the values it tests, on each side.

The forms are those pyright and mypy document: ``x is None`` / ``is not None``, ``==`` / ``!=``
a literal, truthiness (``if x``, ``not x``), ``isinstance``, ``callable``, ``x in (...)``,
combined with ``and``, ``or`` and ``not``; the subject may be a name, a walrus, or an attribute
of one of the user's objects (``self.runner is None``). A refinement only ever makes a value
*more* precise in a way the condition proves: a name is never given a value it could not hold
on that side. Where a condition says nothing certain, nothing is refined. The same answers
give the value of a call of ``isinstance``, ``bool`` or ``callable`` when it is certain
(:func:`builtin_check`).
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.annotated import of_class
from evalsubmit.analysis.interp.objects import attribute_key
from evalsubmit.analysis.interp.operators import truthiness
from evalsubmit.analysis.values.domain import (
    DictValue,
    Instance,
    Known,
    Origin,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.env import Env
from evalsubmit.analysis.values.objects import CallArgs, ClassValue, FunctionValue, PartialValue
from evalsubmit.sdk import names as sdk

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


Refinements = dict[str, tuple[Value | None, Value]]
"""By environment key: the value before (None: not bound in this scope) and on this side."""

_PLAIN = (str, int, float, bool, bytes)
_NONE_TYPES = frozenset({"None", "NoneType"})


def refine(interp: Interpreter, test: ast.expr, positive: bool) -> Refinements:
    """Bind, in the current environment, what ``test`` being ``positive`` proves; returns
    what was bound (so a join can tell narrowed values from values the branch assigned)."""
    found: Refinements = {}
    for key, value in _refinements(interp, test, positive):
        env = interp.frame.env
        before = env.bindings.get(key)
        if key not in found:
            found[key] = (before, value)
        else:
            found[key] = (found[key][0], value)
        env.names[key] = value
    return found


def restore(env: Env, refined: Refinements) -> None:
    """Undo refinements that still hold their narrowed value (the branch rejoins others,
    where the condition proves nothing)."""
    for key, (before, narrowed) in refined.items():
        if env.bindings.get(key) is narrowed:
            if before is None:
                del env.names[key]
            else:
                env.names[key] = before


def _refinements(interp: Interpreter, test: ast.expr, positive: bool) -> list[tuple[str, Value]]:
    match test:
        case ast.UnaryOp(op=ast.Not(), operand=operand):
            return _refinements(interp, operand, not positive)
        case ast.BoolOp(op=ast.And(), values=operands) if positive:
            return [r for operand in operands for r in _refinements(interp, operand, True)]
        case ast.BoolOp(op=ast.Or(), values=operands) if not positive:
            return [r for operand in operands for r in _refinements(interp, operand, False)]
        case ast.Compare(left=left, ops=[op], comparators=[right]):
            return _compared(interp, left, op, right, positive)
        case ast.Call(func=ast.Name(id="isinstance"), args=[subject, kind], keywords=[]):
            return _isinstance(interp, subject, kind, positive)
        case ast.Call(func=ast.Name(id="callable" | "bool"), args=[subject], keywords=[]):
            return _truthy(interp, subject) if positive else []
        case ast.Name() | ast.NamedExpr() | ast.Attribute():
            return _truthy(interp, test) if positive else []
    return []


def _compared(
    interp: Interpreter, left: ast.expr, op: ast.cmpop, right: ast.expr, positive: bool
) -> list[tuple[str, Value]]:
    subject, other = (right, left) if isinstance(left, ast.Constant) else (left, right)
    found = _subject(interp, subject)
    if found is None or not isinstance(other, (ast.Constant, ast.Tuple, ast.List)):
        return []
    key, current = found
    literal = other.value if isinstance(other, ast.Constant) else None
    if isinstance(op, (ast.Is, ast.IsNot)) and isinstance(other, ast.Constant) and literal is None:
        if positive == isinstance(op, ast.Is):
            return [(key, Known(None, _origin(current)))]
        return _not_none(key, current)
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(literal, _PLAIN):
        if positive == isinstance(op, ast.Eq) and not isinstance(current, Known):
            # the value is the literal it was compared with, written there
            return [(key, Known(literal, interp.frame.source.origin(other)))]
        return []
    if isinstance(op, (ast.In, ast.NotIn)) and isinstance(other, (ast.Tuple, ast.List)):
        members = [e.value for e in other.elts if isinstance(e, ast.Constant)]
        complete = len(members) == len(other.elts)
        if positive == isinstance(op, ast.In) and complete and None not in members:
            return _not_none(key, current)
    return []


def _isinstance(
    interp: Interpreter, subject: ast.expr, kind: ast.expr, positive: bool
) -> list[tuple[str, Value]]:

    found = _subject(interp, subject)
    if found is None or not positive:
        return []
    key, current = found
    if isinstance(current, Unknown):
        with interp.silent():
            value = of_class(interp, interp.eval(kind))
        return [] if isinstance(value, Unknown) else [(key, value)]
    return _not_none(key, current)


def _truthy(interp: Interpreter, subject: ast.expr) -> list[tuple[str, Value]]:
    found = _subject(interp, subject)
    return [] if found is None else _not_none(*found)


def _not_none(key: str, current: Value | None) -> list[tuple[str, Value]]:
    """``current`` on a side where it is known not to be None."""
    match current:
        case Instance(maybe_none=True, ref=ref) if ref.user is None:
            # SDK objects carry no identity of ours (a user object's attributes are keyed by
            # its id, so it is never copied)
            return [(key, current.copy(maybe_none=False))]
        case Unknown(type_name=str() as type_name) if _NONE_TYPES & set(type_name.split("|")):
            kept = "|".join(t for t in type_name.split("|") if t not in _NONE_TYPES)
            return [(key, replace(current, type_name=kept or None))]
    return []


def _subject(interp: Interpreter, node: ast.expr) -> tuple[str, Value | None] | None:
    """The environment key a condition's subject is read from, and its value there."""
    match node:
        case ast.Name(id=name) | ast.NamedExpr(target=ast.Name(id=name)):
            return name, interp.frame.env.lookup(name)
        case ast.Attribute(value=base_node, attr=attr):
            with interp.silent():
                base = interp.eval(base_node)
            if isinstance(base, Instance) and base.ref.user is not None:
                return attribute_key(base, attr), interp.user_attribute(base, attr)
    return None


def _origin(value: Value | None) -> Origin | None:
    origin = getattr(value, "origin", None)
    return origin if isinstance(origin, Origin) else None


_BUILTIN_TYPES: dict[str, type] = {
    f"builtins.{kind.__name__}": kind
    for kind in (str, int, float, bool, bytes, dict, list, tuple, set, frozenset)
}


_SDK_CLASSES = sdk.RUNNER_CLASSES | sdk.NON_RUNNER_CLASSES


def instance_of(value: Value, kind: Value) -> bool | None:
    """``isinstance(value, kind)`` when certain: a value of a class the SDK model knows
    against another such class (the SDK's runners and configs subclass none of each other),
    a literal against a builtin type, a tuple of kinds; None otherwise."""
    if isinstance(kind, SeqValue) and kind.complete:
        answers = [instance_of(value, one) for one in kind.items]
        if any(answer is True for answer in answers):
            return True
        return False if answers and all(answer is False for answer in answers) else None
    if not isinstance(kind, ClassValue) or kind.ref.user is not None:
        return None
    wanted = kind.ref.qualname
    match value:
        case Known(obj=obj) if wanted in _BUILTIN_TYPES and type(obj) in _BUILTIN_TYPES.values():
            return isinstance(obj, _BUILTIN_TYPES[wanted])
        case Instance(ref=ref, maybe_none=False) if ref.user is None:
            if ref.qualname == wanted:
                return True
            concrete = _SDK_CLASSES
            related = "sandboxed" in ref.qualname or "sandboxed" in wanted
            if ref.qualname in concrete and wanted in concrete and not related:
                return False
            if wanted in _BUILTIN_TYPES and ref.qualname in concrete:
                return False
        case DictValue() if wanted in _BUILTIN_TYPES:
            return wanted == "builtins.dict"
        case SeqValue(kind=seq_kind) if wanted in _BUILTIN_TYPES:
            return issubclass(seq_kind, _BUILTIN_TYPES[wanted])
        case Known() | DictValue() | SeqValue() if (
            wanted in sdk.RUNNER_CLASSES | sdk.NON_RUNNER_CLASSES
        ):
            return False  # plain data is never an instance of the SDK's classes
    return None


def builtin_check(qualname: str, args: CallArgs, origin: Origin) -> Known | None:
    """``isinstance(x, C)``, ``bool(x)`` and ``callable(x)`` when their answer is certain."""
    positional = args.positional
    if args.keywords or args.star_unknown:
        return None
    answer: bool | None = None
    if qualname == "builtins.isinstance" and len(positional) == 2:
        answer = instance_of(positional[0], positional[1])
    elif qualname == "builtins.bool" and len(positional) == 1:
        answer = truthiness(positional[0])
    elif qualname == "builtins.callable" and len(positional) == 1:
        if isinstance(positional[0], (FunctionValue, ClassValue, PartialValue)):
            answer = True
        elif isinstance(positional[0], (Known, DictValue, SeqValue)):
            answer = False
    return None if answer is None else Known(answer, origin)
