"""Expression evaluation of the abstract interpreter (statements are in :mod:`.interpreter`,
calls in :mod:`.calls`)."""

from __future__ import annotations

import ast
import operator
from collections.abc import Callable
from pathlib import Path, PurePath
from typing import Any

from evalsubmit.analysis.interp.machine import Machine
from evalsubmit.analysis.interp.objects import (
    attribute_key,
    sdk_class_of,
    super_attribute,
    user_mro,
)
from evalsubmit.analysis.models import stdlib
from evalsubmit.analysis.values.domain import (
    CallArgs,
    ClassRef,
    ClassValue,
    DictValue,
    FunctionValue,
    Instance,
    Known,
    ModuleValue,
    OneShot,
    Origin,
    PartialValue,
    Refused,
    SeqValue,
    Unknown,
    UserClass,
    Value,
)
from evalsubmit.analysis.values.env import Env, ModuleSource
from evalsubmit.analysis.values.iterables import items_of, pairs_to_dict
from evalsubmit.core.findings import Span
from evalsubmit.sdk import names as sdk

_BINOPS: dict[type[ast.operator], Callable[[Any, Any], Any]] = {
    ast.Pow: lambda base, exponent: _bounded_pow(base, exponent),
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: lambda left, right: _bounded_mul(left, right),
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: operator.mod,
}
_MAX_RESULT = 10_000
_SEQ_KINDS: dict[type[ast.expr], type] = {ast.List: list, ast.Tuple: tuple, ast.Set: set}
_COMPREHENSIONS: dict[type[ast.expr], str] = {
    ast.ListComp: "list",
    ast.SetComp: "set",
    ast.DictComp: "dict",
}


class Expressions:
    def __init__(self, machine: Machine) -> None:
        self.machine = machine

    @property
    def source(self) -> ModuleSource:
        """The module whose code is being walked (a helper's own, in its body)."""
        return self.machine.frame.source

    def origin(self, node: ast.AST) -> Origin:
        return self.source.origin(node)

    def span(self, node: ast.AST) -> Span:
        return self.source.span(node)

    def eval(self, node: ast.expr) -> Value:
        try:
            return self._eval(node)
        except RecursionError:
            return Unknown("expression too deeply nested")

    def _eval(self, node: ast.expr) -> Value:
        match node:
            case ast.Constant(value=value):
                return Known(value, self.origin(node))
            case ast.Name(id=name):
                found = self.machine.frame.env.lookup(name)
                return found if found is not None else self.machine.import_value(f"builtins.{name}")
            case ast.Attribute():
                return self.attribute(node)
            case ast.Call():
                return self.machine.call(node)
            case ast.Lambda():
                frame = self.machine.frame
                defaults = {
                    a.arg: self.eval(d)
                    for a, d in zip(
                        node.args.args[len(node.args.args) - len(node.args.defaults) :],
                        node.args.defaults,
                        strict=True,
                    )
                }
                return FunctionValue(
                    "<lambda>",
                    node,
                    self.origin(node),
                    module=frame.source,
                    defaults=defaults,
                    closure=frame.env,
                )
            case ast.Dict():
                return self.dict_literal(node)
            case ast.List() | ast.Tuple() | ast.Set():
                return self.sequence_literal(node, _SEQ_KINDS[type(node)])
            case ast.GeneratorExp() | ast.ListComp() | ast.SetComp() | ast.DictComp():
                return self.comprehension(node)
            case ast.JoinedStr():
                return self.fstring(node)
            case ast.BinOp():
                return self.binop(node)
            case ast.UnaryOp():
                return self.unaryop(node)
            case ast.Subscript():
                return self.subscript(node)
            case ast.Yield(value=inner):
                frame = self.machine.frame
                yielded = self.eval(inner) if inner is not None else Known(None)
                if frame.yields and frame.returns is not None and not frame.returns:
                    frame.returns.append(yielded)
                return Unknown("what a generator is sent")
            case ast.Await(value=inner):
                self.eval(inner)
                return Unknown("the result of an await")
            case ast.NamedExpr(target=ast.Name(id=name), value=inner):
                bound = self.eval(inner)
                self.machine.frame.env.names[name] = bound
                return bound
            case ast.IfExp(body=body, orelse=orelse):
                test = truthiness(self.eval(node.test))
                first, second = self.eval(body), self.eval(orelse)
                if test is not None:
                    return first if test else second
                return first if first is second else Unknown("depends on a condition")
            case ast.BoolOp(op=op, values=operands):
                return self.boolean(isinstance(op, ast.Or), [self.eval(v) for v in operands])
            case ast.Starred(value=inner):
                return self.eval(inner)
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.expr):
                self.eval(child)  # submit calls can hide inside any expression
        return Unknown()

    def boolean(self, is_or: bool, values: list[Value]) -> Value:
        """``a or b`` / ``a and b``: the operand Python would return, when truthiness is
        known up to it (``param or {}`` with ``param=None`` is the ``{}``)."""
        for value in values[:-1]:
            truth = truthiness(value)
            if truth is None:
                return Unknown("depends on a condition")
            if truth is is_or:
                return value
        return values[-1]

    def attribute(self, node: ast.Attribute) -> Value:
        frame = self.machine.frame
        if _is_super_call(node.value) and frame.owner is not None and frame.receiver is not None:
            found = super_attribute(frame.owner, frame.receiver, node.attr)
            return found if found is not None else Unknown("an attribute of a base class")
        base = self.eval(node.value)
        name = node.attr
        match base:
            case ModuleValue(qualname=qualname):
                return self.machine.import_value(f"{qualname}.{name}")
            case ClassValue(ref=ClassRef(qualname=qualname, user=None)):
                found = stdlib.stdlib_constant(f"{qualname}.{name}", self.origin(node))
                return found if found is not None else ClassValue(ClassRef(f"{qualname}.{name}"))
            case ClassValue(ref=ClassRef(user=UserClass() as user)):
                written = self.machine.frame.env.lookup(attribute_key(user, name))
                if written is not None:
                    return written
                if name in user.enum_members:
                    return Known(user.enum_members[name], self.origin(node))
                for cls in user_mro(user):
                    if name in cls.class_values and name not in cls.methods:
                        return cls.class_values[name]
                    if name in cls.methods:
                        return cls.methods[name]
                return Unknown(f"attribute of class {user.name}")
            case Instance(ref=ref):
                return self.instance_attribute(base, ref, name, node)
            case DictValue() | SeqValue() | Known():
                return FunctionValue(f"bound method .{name}()", None, self.origin(node), None, base)
            case Unknown(element=element) if element is not None:
                return FunctionValue(f"bound method .{name}()", None, self.origin(node), None, base)
            case Refused(reason=reason) if not reason.startswith("os.environ"):
                return Refused(f"a bound method .{name} of {reason}", self.origin(node))
        return Unknown()

    def instance_attribute(
        self, base: Instance, ref: ClassRef, name: str, node: ast.Attribute
    ) -> Value:
        if ref.user is not None:
            found = self.machine.user_attribute(base, name)
            if found is not None:
                return found
        qualname = sdk_class_of(ref)
        if name == "evaluator" and qualname == sdk.PLATFORM_CLIENT:
            return Instance(
                ClassRef(sdk.EVALUATOR), CallArgs(keywords={"client": base}), self.origin(node)
            )
        if name == "evaluator" and qualname == sdk.ASYNC_PLATFORM_CLIENT:
            return Instance(
                ClassRef(sdk.ASYNC_EVALUATOR),
                CallArgs(keywords={"client": base}),
                self.origin(node),
            )
        is_runner = qualname in sdk.RUNNER_CLASSES or ref.user is not None
        if is_runner and name == "config" and "config" in base.args.keywords:
            return base.args.keywords["config"]
        if qualname == sdk.GYM_CONFIG and name in base.args.keywords:
            return base.args.keywords[name]
        modelled = qualname == sdk.GYM_CONFIG and name in {"model_dump", "model_copy"}
        modelled = modelled or (qualname == stdlib.ARGUMENT_PARSER and name in stdlib.PARSE_METHODS)
        if qualname.startswith("logging.") or _is_submit(qualname, name) or modelled:
            return FunctionValue(
                f"bound method {ref.qualname}.{name}", None, self.origin(node), None, base
            )
        return Unknown(f"attribute {name} of {ref.qualname.rsplit('.', 1)[-1]}")

    def dict_literal(self, node: ast.Dict) -> DictValue:
        result = DictValue(origin=self.origin(node))
        for key_node, value_node in zip(node.keys, node.values, strict=True):
            value = self.eval(value_node)
            if key_node is None:
                if isinstance(value, DictValue):
                    result.entries.extend(value.entries)
                    result.complete = result.complete and value.complete
                else:
                    result.complete = False
                continue
            key = self.eval(key_node)
            entry_span = _join(self.span(key_node), self.span(value_node))
            result.set(key, value, Origin(self.source.path, entry_span))
        return result

    def sequence_literal(self, node: ast.List | ast.Tuple | ast.Set, kind: type) -> Value:
        items: list[Value] = []
        origins: list[Origin | None] = []
        for element in node.elts:
            value = self.eval(element)
            if isinstance(element, ast.Starred):
                if isinstance(value, SeqValue) and value.complete:
                    items.extend(value.items)
                    origins.extend(value.item_origins or [None] * len(value.items))
                    continue
                return Unknown("unpacks a value not known statically", kind.__name__)
            items.append(value)
            origins.append(self.origin(element))
        return SeqValue(kind, items, self.origin(node), origins)

    def comprehension(
        self, node: ast.GeneratorExp | ast.ListComp | ast.SetComp | ast.DictComp
    ) -> Value:
        """Evaluated when it has one ``for`` over known items; else only its type is known."""
        origin = self.origin(node)
        items = self._comprehension_items(node)
        if isinstance(node, ast.GeneratorExp):
            return OneShot("a generator expression", origin, items)
        if items is None:
            return Unknown("built by a comprehension", _COMPREHENSIONS[type(node)])
        if isinstance(node, ast.DictComp):
            return pairs_to_dict(items, origin) or Unknown("built by a comprehension", "dict")
        return SeqValue(list if isinstance(node, ast.ListComp) else set, items, origin)

    def _comprehension_items(
        self, node: ast.GeneratorExp | ast.ListComp | ast.SetComp | ast.DictComp
    ) -> list[Value] | None:
        if len(node.generators) != 1 or node.generators[0].is_async:
            return None
        clause = node.generators[0]
        source = items_of(self.eval(clause.iter))
        if source is None or not _simple_target(clause.target):
            return None
        results: list[Value] = []
        with self.machine.scope(Env(parent=self.machine.frame.env)) as frame:
            for item in source:
                if not _bind_target(frame.env.names, clause.target, item):
                    return None
                tests = [self.eval(test) for test in clause.ifs]
                if not all(isinstance(t, Known) for t in tests):
                    return None
                if not all(t.obj for t in tests if isinstance(t, Known)):
                    continue
                if isinstance(node, ast.DictComp):
                    pair = [self.eval(node.key), self.eval(node.value)]
                    results.append(SeqValue(tuple, pair, self.origin(node)))
                else:
                    results.append(self.eval(node.elt))
        return results

    def fstring(self, node: ast.JoinedStr) -> Value:
        parts: list[str] = []
        for value in node.values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(value.value)
                continue
            formatted = self._formatted(value) if isinstance(value, ast.FormattedValue) else None
            if formatted is None:
                return Unknown("an f-string computed at run time", "str")
            parts.append(formatted)
        return Known("".join(parts), self.origin(node))

    def _formatted(self, node: ast.FormattedValue) -> str | None:
        value = self.eval(node.value)
        if node.format_spec is not None or node.conversion not in (-1, ord("s")):
            return None
        if isinstance(value, Known) and isinstance(value.obj, (str, int, float, bool, Path)):
            text = str(value.obj)
            return text if len(text) <= _MAX_RESULT else None
        return None

    def binop(self, node: ast.BinOp) -> Value:
        left, right = self.eval(node.left), self.eval(node.right)
        function = _BINOPS.get(type(node.op))
        known = isinstance(left, Known) and isinstance(right, Known)
        if function and known and _small(left.obj) and _small(right.obj):  # type: ignore[union-attr]
            try:
                result = function(left.obj, right.obj)  # type: ignore[union-attr]
            except Exception:  # any arithmetic failure only means the result is unknown
                return Unknown()
            if _small(result):
                return Known(result, self.origin(node))
        path = isinstance(left, Known) and isinstance(left.obj, Path)
        if isinstance(left, Unknown) and left.type_name in {"PosixPath", "WindowsPath"}:
            path = True
        if isinstance(node.op, ast.Div) and path:
            return Unknown("a path computed at run time", "PosixPath")
        return Unknown()

    def unaryop(self, node: ast.UnaryOp) -> Value:
        operand = self.eval(node.operand)
        if isinstance(operand, Known) and isinstance(operand.obj, (int, float, bool)):
            if isinstance(node.op, ast.USub):
                return Known(-operand.obj, self.origin(node))
            if isinstance(node.op, ast.UAdd):
                return Known(+operand.obj, self.origin(node))
            if isinstance(node.op, ast.Not):
                return Known(not operand.obj, self.origin(node))
        return Unknown()

    def subscript(self, node: ast.Subscript) -> Value:
        base = self.eval(node.value)
        key = self.eval(node.slice)
        if isinstance(base, Refused) and base.reason.startswith("os.environ"):
            return Unknown("read from the environment", "str")
        if isinstance(base, DictValue) and isinstance(key, Known):
            entry = base.get(key.obj)
            return entry.value if entry is not None else Unknown()
        if isinstance(base, Unknown) and base.element is not None:
            return base.element
        if (
            isinstance(base, SeqValue)
            and base.complete
            and isinstance(key, Known)
            and isinstance(key.obj, int)
            and -len(base.items) <= key.obj < len(base.items)
        ):
            return base.items[key.obj]
        return Unknown()


def _is_super_call(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and not node.args
    )


def _simple_target(target: ast.expr) -> bool:
    """A name, or a tuple of names (``for name, value in ...``)."""
    if isinstance(target, (ast.Tuple, ast.List)):
        return all(isinstance(e, ast.Name) for e in target.elts)
    return isinstance(target, ast.Name)


def _bind_target(names: dict[str, Value], target: ast.expr, item: Value) -> bool:
    """Bind a comprehension's target; False when a tuple cannot be unpacked statically."""
    if isinstance(target, ast.Name):
        names[target.id] = item
        return True
    assert isinstance(target, (ast.Tuple, ast.List))
    if not isinstance(item, SeqValue) or not item.complete or len(item.items) != len(target.elts):
        return False
    for element, value in zip(target.elts, item.items, strict=True):
        assert isinstance(element, ast.Name)
        names[element.id] = value
    return True


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


def _is_submit(qualname: str, name: str) -> bool:
    return name == "submit" and qualname in {sdk.EVALUATOR, sdk.ASYNC_EVALUATOR}


def _join(first: Span, last: Span) -> Span:
    return Span(first.line, first.col, last.end_line, last.end_col)


def _bounded_mul(left: Any, right: Any) -> Any:
    """``left * right``, refusing a repeated str/bytes longer than ``_MAX_RESULT`` before it is
    built (``"a" * 10**10`` would allocate 10 GB)."""
    for seq, count in ((left, right), (right, left)):
        repeated = isinstance(seq, (str, bytes)) and isinstance(count, int)
        if repeated and len(seq) * max(count, 0) > _MAX_RESULT:
            raise OverflowError("repeated sequence too long to evaluate statically")
    return operator.mul(left, right)


def _bounded_pow(base: Any, exponent: Any) -> Any:
    if isinstance(exponent, (int, float)) and abs(exponent) <= 256:
        return base**exponent
    raise OverflowError("exponent too large to evaluate statically")


def _small(value: object) -> bool:
    if isinstance(value, (str, bytes)):
        return len(value) <= _MAX_RESULT
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int):
        return value.bit_length() <= 4096
    if isinstance(value, PurePath):
        return len(str(value)) <= _MAX_RESULT
    return isinstance(value, (float, complex))
