"""Calls that reach an attribute named by a string: ``getattr(obj, "name")`` and the callables
``operator.attrgetter("a.b")`` and ``operator.methodcaller("name", ...)`` make, evaluated as the
attribute (or method call) written out, on a plain reference only (a name or an attribute, never
a call: the object is evaluated again). Functions of :class:`.calls.Calls`, which dispatches
here."""

from __future__ import annotations

import ast
from typing import Protocol

from evalsubmit.analysis.values.domain import Known, Unknown, Value
from evalsubmit.analysis.values.objects import CallArgs, PartialValue
from evalsubmit.core.findings import Span

METHOD_CALLER = "operator.methodcaller"
ATTR_GETTER = "operator.attrgetter"


class Calling(Protocol):
    """What these functions use of :class:`.calls.Calls`."""

    def eval(self, node: ast.expr) -> Value: ...

    def apply(self, fn: Value, node: ast.Call, args: CallArgs, spans: dict[str, Span]) -> Value: ...


def call_method_by_name(calls: Calling, caller: PartialValue, node: ast.Call) -> Value:
    """``caller(obj)`` for ``caller = operator.methodcaller(name, *a, **k)``: ``obj.name(*a,
    **k)``, its arguments reported where the methodcaller was written."""
    stored = caller.args
    name = stored.positional[0]
    if len(node.args) != 1 or not (isinstance(name, Known) and isinstance(name.obj, str)):
        return Unknown("the result of a call")
    if not name.obj.isidentifier() or not _plain_reference(node.args[0]):
        return Unknown("the result of a call")
    method = calls.eval(_attribute_of(node, node.args[0], name.obj))
    return calls.apply(method, node, stored.after_first(), {})


def get_attribute_by_name(calls: Calling, getter: PartialValue, node: ast.Call) -> Value:
    """``getter(obj)`` for ``getter = operator.attrgetter("a.b")``: ``obj.a.b``."""
    name = getter.args.positional[0]
    if len(node.args) != 1 or not (isinstance(name, Known) and isinstance(name.obj, str)):
        return Unknown("the result of a call")
    parts = name.obj.split(".")
    if not all(part.isidentifier() for part in parts) or not _plain_reference(node.args[0]):
        return Unknown("the result of a call")
    reached: ast.expr = node.args[0]
    for part in parts:
        reached = (
            _attribute_of(node, reached, part)
            if reached is node.args[0]
            else (ast.copy_location(ast.Attribute(value=reached, attr=part, ctx=ast.Load()), node))
        )
    return calls.eval(reached)


def getattr_value(calls: Calling, node: ast.Call, args: CallArgs) -> Value | None:
    """``getattr(obj, "name")`` (a known name) is ``obj.name``; the default of a
    three-argument ``getattr`` makes it unknown when the attribute may be missing."""
    if len(node.args) != 2 or node.keywords or len(args.positional) != 2:
        return None
    name = args.positional[1]
    base = node.args[0]
    if not (isinstance(name, Known) and isinstance(name.obj, str) and name.obj.isidentifier()):
        return None
    if not _plain_reference(base):
        return None  # evaluated again below: only names and attributes, never a call
    return calls.eval(_attribute_of(node, base, name.obj))


def _attribute_of(call: ast.Call, base: ast.expr, name: str) -> ast.Attribute:
    """``base.name``, made once per call node and kept on it (origins and spans are cached by
    node): ``getattr(base, "name")``, ``methodcaller("name")(base)``."""
    attribute: ast.Attribute | None = getattr(call, "_evalsubmit_attribute", None)
    if attribute is None or attribute.attr != name:
        attribute = ast.Attribute(value=base, attr=name, ctx=ast.Load())
        ast.copy_location(attribute, call)
        call._evalsubmit_attribute = attribute  # type: ignore[attr-defined]
    return attribute


def _plain_reference(node: ast.expr) -> bool:
    while isinstance(node, ast.Attribute):
        node = node.value
    return isinstance(node, ast.Name)
