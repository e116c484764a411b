"""Expression evaluation of the abstract interpreter: names, literals, comprehensions,
f-strings, subscripts and the dispatch of every other kind of expression.

Statements are walked in :mod:`.statements`, calls evaluated in :mod:`.calls`, attribute reads in
:mod:`.attributes` and operators in :mod:`.operators`; an expression nobody models is unknown, but
its parts are still evaluated, because a ``submit()`` call can hide inside any expression.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.attributes import Attributes
from evalsubmit.analysis.interp.class_lookup import super_attribute
from evalsubmit.analysis.interp.operators import (
    MAX_RESULT,
    binary,
    boolean,
    compare,
    truthiness,
    unary,
)
from evalsubmit.analysis.interp.sdk_calls import runner_init
from evalsubmit.analysis.source import tree_walk
from evalsubmit.analysis.source.parse import new_span
from evalsubmit.analysis.values.dict_entries import Entries
from evalsubmit.analysis.values.domain import (
    DictValue,
    Known,
    OneShot,
    Origin,
    Refused,
    SeqValue,
    Unknown,
    Value,
)
from evalsubmit.analysis.values.env import Env
from evalsubmit.analysis.values.iterables import distinct, items_of, pairs_to_dict
from evalsubmit.analysis.values.objects import FunctionValue
from evalsubmit.core.findings import Span

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


_SEQ_KINDS: dict[type[ast.expr], type] = {ast.List: list, ast.Tuple: tuple, ast.Set: set}
_COMPREHENSIONS: dict[type[ast.expr], str] = {
    ast.ListComp: "list",
    ast.SetComp: "set",
    ast.DictComp: "dict",
}


class Expressions:
    """Evaluation of expressions; which method evaluates which kind of node is
    :data:`.dispatch.EXPRESSIONS`."""

    def __init__(self, interp: Interpreter) -> None:
        self.interp = interp
        self.attributes = Attributes(interp)
        # the dispatch through the table (interp.eval), bound once: it is called ~28k times
        # in a cold analysis of a 5,000-line job
        self.eval: Callable[[ast.expr], Value] = interp.eval

    # ----- one handler per kind of expression (the table is dispatch.EXPRESSIONS) ----------

    def lambda_(self, node: ast.Lambda) -> Value:
        frame = self.interp.frame
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
            self.interp.origin(node),
            module=frame.source,
            defaults=defaults,
            closure=frame.env,
        )

    def unary_operation(self, node: ast.UnaryOp) -> Value:
        return unary(node, self.eval(node.operand), self.interp.frame.source)

    def yield_(self, node: ast.Yield) -> Value:
        frame = self.interp.frame
        yielded = self.eval(node.value) if node.value is not None else Known(None)
        if frame.yields and frame.returns is not None and not frame.returns:
            frame.returns.append(yielded)
        return Unknown("what a generator is sent")

    def await_(self, node: ast.Await) -> Value:
        if isinstance(node.value, ast.Call):
            return self.interp.awaited(node.value)
        self.eval(node.value)
        return Unknown("the result of an await")

    def named(self, node: ast.NamedExpr) -> Value:
        if not isinstance(node.target, ast.Name):
            return self.operands_unknown(node)
        bound = self.eval(node.value)
        self.interp.frame.env.names[node.target.id] = bound
        return bound

    def conditional(self, node: ast.IfExp) -> Value:
        test = truthiness(self.eval(node.test))
        first, second = self.eval(node.body), self.eval(node.orelse)
        if test is not None:
            return first if test else second
        return first if first is second else Unknown("depends on a condition")

    def comparison(self, node: ast.Compare) -> Value:
        operands = [self.eval(node.left), *(self.eval(right) for right in node.comparators)]
        return compare(node, operands, self.interp.frame.source)

    def boolean_operation(self, node: ast.BoolOp) -> Value:
        return boolean(isinstance(node.op, ast.Or), [self.eval(v) for v in node.values])

    def starred(self, node: ast.Starred) -> Value:
        return self.eval(node.value)

    def operands_unknown(self, node: ast.expr) -> Value:
        """A kind of expression not modelled: unknown, but its parts are still evaluated."""
        for child in tree_walk.child_nodes(node):
            if isinstance(child, ast.expr):
                self.eval(child)  # submit calls can hide inside any expression
        return Unknown()

    def constant(self, node: ast.Constant) -> Value:
        return Known(node.value, self.interp.frame.source.origin(node))

    def name(self, node: ast.Name) -> Value:
        found = self.interp.frame.env.lookup(node.id)
        if found is not None:
            return found
        if node.id == "__name__":  # the module's, not the builtins module's
            return self.interp.run_name
        return self.interp.import_value(f"builtins.{node.id}")

    def call(self, node: ast.Call) -> Value:
        return self.interp.call(node)

    def binary_operation(self, node: ast.BinOp) -> Value:
        return binary(node, self.eval(node.left), self.eval(node.right), self.interp.frame.source)

    def sequence(self, node: ast.List | ast.Tuple | ast.Set) -> Value:
        return self.sequence_literal(node, _SEQ_KINDS[type(node)])

    def attribute(self, node: ast.Attribute) -> Value:
        frame = self.interp.frame
        if _is_super_call(node.value) and frame.owner is not None and frame.receiver is not None:
            found = super_attribute(frame.owner, frame.receiver, node.attr)
            if found is None and node.attr == "__init__":
                found = runner_init(frame.owner, frame.receiver)
            return found if found is not None else Unknown("an attribute of a base class")
        return self.attributes.attribute(self.eval(node.value), node)

    def dict_literal(self, node: ast.Dict) -> DictValue:
        entries = Entries()
        for key_node, value_node in zip(node.keys, node.values, strict=True):
            value = self.eval(value_node)
            if key_node is None:
                entries.unpack(value)
                continue
            key = self.eval(key_node)
            entry_span = _join(self.interp.span(key_node), self.interp.span(value_node))
            entries.put(key, value, Origin(self.interp.frame.source.path, entry_span))
        return entries.dict(self.interp.origin(node))

    def sequence_literal(self, node: ast.List | ast.Tuple | ast.Set, kind: type) -> Value:
        items: list[Value] = []
        origins: list[Origin | None] = []
        for element in node.elts:
            value = self.eval(element)
            if isinstance(element, ast.Starred):
                if isinstance(value, SeqValue) and value.complete:
                    items.extend(value.items)
                    origins.extend(value.item_origins or (None,) * len(value.items))
                    continue
                return Unknown("unpacks a value not known statically", kind.__name__)
            items.append(value)
            origins.append(self.interp.origin(element))
        if kind is set:
            kept = distinct(items)
            if kept is None:
                return SeqValue(set, tuple(items), self.interp.origin(node), complete=False)
            items, origins = [items[i] for i in kept], [origins[i] for i in kept]
        return SeqValue(kind, tuple(items), self.interp.origin(node), tuple(origins))

    def comprehension(
        self, node: ast.GeneratorExp | ast.ListComp | ast.SetComp | ast.DictComp
    ) -> Value:
        """Evaluated when it has one ``for`` over known items; else only its type is known."""
        origin = self.interp.origin(node)
        items = self._comprehension_items(node)
        if isinstance(node, ast.GeneratorExp):
            return OneShot("a generator expression", origin, items)
        if items is None:
            return Unknown("built by a comprehension", _COMPREHENSIONS[type(node)])
        if isinstance(node, ast.DictComp):
            return pairs_to_dict(items, origin) or Unknown("built by a comprehension", "dict")
        if isinstance(node, ast.ListComp):
            return SeqValue(list, tuple(items), origin)
        kept = distinct(items)
        if kept is None:
            return SeqValue(set, tuple(items), origin, complete=False)
        return SeqValue(set, tuple(items[i] for i in kept), origin)

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
        with self.interp.scope(Env(parent=self.interp.frame.env)) as frame:
            for item in source:
                if not _bind_target(frame.env.names, clause.target, item):
                    return None
                tests = [self.eval(test) for test in clause.ifs]
                if not all(isinstance(t, Known) for t in tests):
                    return None
                if not all(t.obj for t in tests if isinstance(t, Known)):
                    continue
                if isinstance(node, ast.DictComp):
                    pair = (self.eval(node.key), self.eval(node.value))
                    results.append(SeqValue(tuple, pair, self.interp.origin(node)))
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
        return Known("".join(parts), self.interp.origin(node))

    def _formatted(self, node: ast.FormattedValue) -> str | None:
        value = self.eval(node.value)
        if node.format_spec is not None or node.conversion not in (-1, ord("s")):
            return None
        if isinstance(value, Known) and isinstance(value.obj, (str, int, float, bool, Path)):
            text = str(value.obj)
            return text if len(text) <= MAX_RESULT else None
        return None

    def subscript(self, node: ast.Subscript) -> Value:
        base = self.eval(node.value)
        key = self.eval(node.slice)
        if isinstance(base, Refused) and base.reason.startswith("os.environ"):
            return Unknown("read from the environment", "str")
        if isinstance(base, DictValue) and isinstance(key, Known):
            entry = base.get(key.obj)
            if entry is not None:
                return entry.value
            if base.complete and not base.default_on_missing and _plain_key(key):
                return Unknown(MISSING_KEY)
            return Unknown()
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


MISSING_KEY = "a key the dict does not hold"
"""Why ``d[k]`` is unknown when ``d`` surely lacks ``k``: reading it raises ``KeyError``."""


def _plain_key(key: Known) -> bool:
    return isinstance(key.obj, (str, int, bool, bytes)) or key.obj is None


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


def _join(first: Span, last: Span) -> Span:
    return new_span(first.line, first.col, last.end_line, last.end_col)
