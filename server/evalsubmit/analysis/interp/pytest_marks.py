"""What pytest's marks make of a test: the cases of ``@pytest.mark.parametrize``, and whether a
mark surely skips the test or one of its cases.

Stacked ``parametrize`` decorators multiply; ``pytest.param(..., id=...)`` is understood, and
each case is named as pytest names it (``in test_submit[harbor]``). A case whose marks surely
skip it (``pytest.mark.skip``, a ``skipif`` whose condition is surely true) never runs, nor
does a test such a mark skips whole (on the function, its class, or a ``pytestmark``;
unittest's ``skip``, ``skipIf``, ``skipUnless`` too). What cannot be known (``indirect=``,
cases built by code not followed) is None: the test is walked once, with unknown values.
"""

from __future__ import annotations

import ast
import itertools
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.frames import MAX_ELEMENT_WALKS, FunctionNode
from evalsubmit.analysis.interp.operators import truthiness
from evalsubmit.analysis.interp.spelling import called_name
from evalsubmit.analysis.values.domain import Instance, Known, SeqValue, Unknown, Value
from evalsubmit.analysis.values.iterables import items_of
from evalsubmit.analysis.values.objects import ClassRef, ClassValue
from evalsubmit.core.findings import Label, Occasion, Site

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


SKIP = "pytest.mark.skip"
_UNITTEST_SKIPS = frozenset(
    f"{module}.{name}"
    for module in ("unittest", "unittest.case")
    for name in ("skip", "skipIf", "skipUnless")
)
SKIP_IF = "pytest.mark.skipif"
Case = tuple[Occasion | None, dict[str, Value]]
Row = tuple[list[Value], str | None, bool]
"""A parametrize case: its values, its explicit id, whether a mark surely skips it."""


def surely_skipped(interp: Interpreter, function: FunctionNode, cls: ClassValue | None) -> bool:
    """Whether a decorator surely skips the test: a pytest mark (on the function, its
    class, or a ``pytestmark``) or unittest's ``skip``/``skipIf``/``skipUnless`` (on the
    function or its class). Only these are evaluated (any other decorator is not called
    again here)."""
    decorators = list(function.decorator_list)
    marks: list[Value] = []
    if cls is not None and cls.ref.user is not None:
        decorators += cls.ref.user.node.decorator_list
        marks.append(cls.ref.user.class_values.get("pytestmark", Unknown()))
    marks.append(interp.module_env.bindings.get("pytestmark", Unknown()))
    with interp.silent():
        for decorator in decorators:
            if _is_parametrize(decorator):
                continue
            target = interp.eval(decorator.func if isinstance(decorator, ast.Call) else decorator)
            if _is_pytest_mark(target):  # (the mark: the decorator's value, read once)
                if isinstance(decorator, ast.Call):
                    target = interp.call_of(decorator, target)
                marks.append(target)
            elif _unittest_skips(interp, decorator, target):
                return True
    return any(_skips(mark) for mark in marks)


def _unittest_skips(interp: Interpreter, decorator: ast.expr, target: Value) -> bool:
    """``@unittest.skip(reason)``, ``@skipIf(condition, ...)`` with a condition surely
    true, ``@skipUnless(condition, ...)`` with one surely false."""
    match target:
        case ClassValue(ref=ClassRef(qualname=name, user=None)) if name in _UNITTEST_SKIPS:
            pass
        case _:
            return False
    if name.endswith(".skip"):
        return True
    if not isinstance(decorator, ast.Call) or not decorator.args:
        return False
    condition = truthiness(interp.eval(decorator.args[0]))
    return condition is (name.endswith(".skipIf"))


def parametrize_cases(interp: Interpreter, function: FunctionNode) -> list[Case] | None:
    """The parametrize cases (their product for stacked decorators), or None."""
    decorators = [d for d in function.decorator_list if _is_parametrize(d)]
    if not decorators:
        return None
    per_decorator: list[list[tuple[str, dict[str, Value]]]] = []
    skipped = False
    for decorator in reversed(decorators):  # pytest applies the innermost first
        one = _one(interp, decorator)
        if one is None:
            return None
        cases, skips = one
        skipped = skipped or skips
        per_decorator.append(cases)
    total = 1
    for cases in per_decorator:
        total *= len(cases)
    if total == 0 and skipped:
        return []  # every case is skipped: the test never runs
    if not 0 < total <= MAX_ELEMENT_WALKS:
        return None
    result: list[Case] = []
    group = Site("parametrize", function.lineno, function.col_offset)
    for index, combination in enumerate(itertools.product(*per_decorator)):
        ident = "-".join(part for part, _ in combination)
        values = {k: v for _, case in combination for k, v in case.items()}
        walk = Occasion(group, index, total, Label.text(f"in {function.name}[{ident}]"))
        result.append((walk, values))
    return result


def _one(
    interp: Interpreter, decorator: ast.expr
) -> tuple[list[tuple[str, dict[str, Value]]], bool] | None:
    """The cases of one ``parametrize`` that run, and whether any was skipped."""
    assert isinstance(decorator, ast.Call)
    if len(decorator.args) < 2:
        return None
    names = _names(decorator.args[0])
    ids = _ids(decorator)
    source = decorator.args[1]
    if names is None:
        return None
    indirect = _indirect(decorator, names)
    if indirect is None:
        return None
    with interp.silent():
        rows = _rows(interp, source, len(names))
    if rows is None:
        return None
    cases = []
    skipped = False
    for index, (values, explicit_id, skip) in enumerate(rows):
        if len(values) != len(names):
            return None
        if skip:  # pytest reports it skipped: its body never runs
            skipped = True
            continue
        ident = explicit_id or (ids[index] if ids and index < len(ids) else None)
        ident = ident or "-".join(_auto_id(n, v, index) for n, v in zip(names, values, strict=True))
        keys = [f"{INDIRECT}{n}" if n in indirect else n for n in names]
        cases.append((ident, dict(zip(keys, values, strict=True))))
    return cases, skipped


INDIRECT = "<request.param>"
"""A case's key for the value an ``indirect`` parameter hands its fixture as
``request.param`` (no Python name starts so): :mod:`.testcode` replaces it with the fixture's
value for that case."""
PYTEST_REQUEST = "_pytest.fixtures.SubRequest"
"""The class of the ``request`` a fixture receives; its instance holds ``param`` only."""


def _indirect(decorator: ast.Call, names: list[str]) -> set[str] | None:
    """The names ``indirect=`` hands to their fixtures: all (``True``), none (absent,
    ``False``), those a literal list names; None when not known."""
    keyword = next((k for k in decorator.keywords if k.arg == "indirect"), None)
    if keyword is None:
        return set()
    match keyword.value:
        case ast.Constant(value=bool() as every):
            return set(names) if every else set()
        case ast.List(elts=elements) | ast.Tuple(elts=elements):
            named = {e.value for e in elements if isinstance(e, ast.Constant)}
            if len(named) == len(elements) and named <= set(names):
                return {str(name) for name in named}
    return None


def _rows(interp: Interpreter, source: ast.expr, width: int) -> list[Row] | None:
    elements: list[Row] = []
    if isinstance(source, (ast.List, ast.Tuple)):
        for element in source.elts:
            row = _row(interp, element, width)
            if row is None:
                return None
            elements.append(row)
        return elements
    items = items_of(interp.eval(source))
    if items is None:
        return None
    for item in items:
        values = _unpack(item, width)
        if values is None:
            return None
        elements.append((values, None, False))
    return elements


def _row(interp: Interpreter, element: ast.expr, width: int) -> Row | None:
    if isinstance(element, ast.Call) and called_name(element.func) == "param":
        ident = next(
            (
                k.value.value
                for k in element.keywords
                if k.arg == "id" and isinstance(k.value, ast.Constant)
            ),
            None,
        )
        given = [interp.eval(a) for a in element.args]
        marks = [interp.eval(k.value) for k in element.keywords if k.arg == "marks"]
        skip = any(_skips(mark) for mark in marks)
        return given, ident if isinstance(ident, str) else None, skip
    values = _unpack(interp.eval(element), width)
    return (values, None, False) if values is not None else None


def _is_parametrize(decorator: ast.expr) -> bool:
    return isinstance(decorator, ast.Call) and called_name(decorator.func) == "parametrize"


def _names(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [n.strip() for n in node.value.split(",") if n.strip()]
    if isinstance(node, (ast.List, ast.Tuple)):
        names = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        if len(names) == len(node.elts) and all(isinstance(n, str) for n in names):
            return [str(n) for n in names]
    return None


def _ids(decorator: ast.Call) -> list[str] | None:
    for keyword in decorator.keywords:
        if keyword.arg == "ids" and isinstance(keyword.value, (ast.List, ast.Tuple)):
            ids = [e.value for e in keyword.value.elts if isinstance(e, ast.Constant)]
            return [str(i) for i in ids]
    return None


def _skips(marks: Value) -> bool:
    """Whether ``pytest.param(..., marks=marks)`` is surely skipped: one of its marks is
    ``pytest.mark.skip`` or a ``skipif`` whose condition is surely true (a string condition is
    evaluated by pytest, at run time: not known here)."""
    for mark in _marks(marks):
        match mark:
            case ClassValue(ref=ClassRef(qualname=name, user=None)) if name == SKIP:
                return True
            case Instance(ref=ClassRef(qualname=name)) if name == SKIP:
                return True
            case Instance(ref=ClassRef(qualname=name), args=args) if name == SKIP_IF:
                conditions = args.positional or [args.keywords.get("condition", Unknown())]
                if any(truthiness(c) is True and _evaluated(c) for c in conditions):
                    return True
    return False


def _is_pytest_mark(value: Value) -> bool:
    """A mark of pytest's (``pytest.mark.skip``, a name bound to ``pytest.mark.skip(...)``)."""
    match value:
        case (
            ClassValue(ref=ClassRef(qualname=name, user=None))
            | Instance(ref=ClassRef(qualname=name, user=None))
        ):
            return name.startswith("pytest.mark.")
    return False


def _marks(marks: Value) -> list[Value]:
    """A mark, or the marks of a list or tuple (a sure skip among them skips whatever the
    others are)."""
    if isinstance(marks, SeqValue):
        return list(marks.items)
    return [marks]


def _evaluated(condition: Value) -> bool:
    return not (isinstance(condition, Known) and isinstance(condition.obj, str))


def _unpack(value: Value, width: int) -> list[Value] | None:
    if width == 1:
        return [value]
    if isinstance(value, SeqValue) and value.complete and len(value.items) == width:
        return list(value.items)
    return None


def _auto_id(name: str, value: Value, index: int) -> str:
    """pytest's id of a parameter value: the value for plain scalars, else name + index."""
    if (isinstance(value, Known) and isinstance(value.obj, (str, int, float, bool))) or (
        isinstance(value, Known) and value.obj is None
    ):
        return str(value.obj)
    return f"{name}{index}"
