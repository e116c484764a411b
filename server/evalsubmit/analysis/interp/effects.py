"""Which module-level names a top-level statement reads and which it can change, from its
syntax alone (cached per statement text); :mod:`.mutation` combines them for one module.

Reads are every name that appears; writes are the names a statement binds, stores into
(``d[k] = v``, ``cfg.field = v``) or changes with a mutating method, and for a top-level function
the module-level names its body changes when it is called. What else a statement may change
without naming it (through an alias, a helper, a user object) is described here (what it calls,
whether it stores, dynamic access) and judged in :mod:`.mutation`.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import replace

from evalsubmit.analysis.interp.attribute_stores import CLASS_SETUP_METHODS, SETUP_METHODS
from evalsubmit.analysis.interp.overrides import base_names
from evalsubmit.analysis.interp.statement_nodes import StatementNodes, names_bound_by
from evalsubmit.analysis.interp.testcode import is_fixture
from evalsubmit.analysis.source import tree_walk
from evalsubmit.core.records import record

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
_DEFINITIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
MUTATING_METHODS = frozenset(
    {
        *("update", "setdefault", "pop", "popitem", "clear"),
        *("append", "extend", "insert", "remove", "sort", "reverse"),
        *("add", "discard", "difference_update", "intersection_update"),
        "symmetric_difference_update",
    }
)
_DYNAMIC = frozenset(
    {"globals", "locals", "vars", "exec", "eval", "setattr", "delattr", "__import__", "__dict__"}
)
_SETUP_METHODS = frozenset((*SETUP_METHODS, *CLASS_SETUP_METHODS))
"""Attribute stores in these are construction; any other one makes that attribute untrusted
in the whole module (:mod:`.attribute_stores`)."""

Callee = tuple[str, ...]
"""("name", n) for ``n(...)``, ("attr", base, method) for ``base.x.method(...)``, ("other",)."""


@record
class Effects:
    reads: frozenset[str]
    writes: frozenset[str]
    """Names this statement binds or changes at module level when it runs."""
    writes_when_called: frozenset[str]
    """For a top-level function: module-level names its body changes when it is called."""
    binds: frozenset[str] = frozenset()
    """The names it binds (a subset of ``writes``)."""
    calls: tuple[Callee, ...] = ()
    """What it calls when it runs (not inside function bodies it defines)."""
    stores: bool = False
    """It stores into a container or attribute, or calls a mutating method, when it runs."""
    dynamic: bool = False
    """Names or attributes reached by string (``globals()``, ``setattr``, ``vars``, a star
    import ...): may read and change anything."""
    volatile: bool = False
    """An attribute assignment outside set-up methods: the interpreter stops trusting what
    construction stored under that attribute name, in the whole module."""
    body_calls: tuple[Callee, ...] = ()
    """A top-level function's body: what it calls (nested functions included)."""
    body_stores: bool = True
    """A top-level function's body changes something it did not create (always True for
    anything but a function: a class's methods, a statement)."""
    body_values: tuple[tuple[str, Callee | None], ...] = ()
    """A top-level function's local bindings, each with where its value comes from (None:
    a parameter, or not one call or attribute)."""
    imports: tuple[tuple[str, str, str, int], ...] = ()
    """(bound name, module, imported name or "", level) of an import statement."""
    value_of: Callee | None = None
    """``x = f(...)`` / ``x = a.b``: where the value of the one name it binds comes from."""
    fixture: bool = False
    """A function decorated as a pytest fixture."""
    definition: bool = False
    """A function or class definition (a test or fixture may name any fixture)."""
    asked: frozenset[str] = frozenset()
    """The module-level names whose freedom from mutation its reads and writes can turn on: those it
    calls (and the bases of the methods it calls), and those its values come from."""
    classes: frozenset[str] = frozenset()
    """Names of the classes it defines (at any depth)."""
    bases: frozenset[str] = frozenset()
    """Names the bases of those classes are spelled with: a subclass can change what a
    generic instance of its base holds (:mod:`.overrides`)."""
    rebinds: frozenset[str] = frozenset()
    """Names a function it defines (at any depth) declares ``global``: after a call made at
    the top level they are unknown (:mod:`.calls`), so every statement that calls writes them."""


def effects(statement: ast.stmt) -> Effects:
    walked = StatementNodes.of(statement)  # one walk, shared by every question below
    nodes = walked.nodes
    changed = frozenset(_changed_bases(walked))
    if isinstance(statement, _DEFINITIONS):
        binds = frozenset({statement.name})
    else:
        binds = frozenset(walked.own_bindings)
    if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
        run = _run_nodes([*statement.decorator_list, *_defaults(statement.args)])
        calls, stores = _calls(run), _stores(run)
    elif walked.scopes:
        run = _run_nodes([statement])
        calls, stores = _calls(run), _stores(run)
    else:  # what runs is every node: the walk's own lists answer
        calls = tuple(_callee(call.func) for call in walked.calls)
        stores = bool(walked.stored_into) or any(map(_mutating_call, walked.calls))
    found = Effects(
        frozenset(n.id for n in walked.names),
        changed | binds,
        frozenset(),
        binds=binds,
        calls=calls,
        stores=stores,
        dynamic=_dynamic(walked),
        volatile=bool(walked.stored_into) and _volatile(statement, walked),
        rebinds=_globals_bound(walked),
        classes=frozenset(n.name for n in walked.binders if isinstance(n, ast.ClassDef)),
        bases=frozenset(
            b for n in walked.binders if isinstance(n, ast.ClassDef) for b in base_names(n)
        ),
    )
    if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        value_of = _value_of(statement)
        return replace(
            found,
            imports=_imports(statement),
            value_of=value_of,
            asked=_asked((*calls, value_of)),
        )
    found = replace(
        found,
        writes=frozenset({statement.name}),
        writes_when_called=(changed | _globals_bound(walked)) - _bound_inside(walked),
        definition=True,
    )
    if isinstance(statement, ast.ClassDef):
        body_stores = any(isinstance(n, _FUNCTIONS) for n in nodes) or bool(statement.keywords)
        bases = tuple(_callee(base) for base in statement.bases)
        return replace(
            found,
            body_calls=bases,
            body_stores=body_stores,
            asked=_asked((*calls, *bases)),
        )
    fresh = _fresh_locals(statement, walked)
    body_calls = (*map(_decorator, statement.decorator_list), *_body_calls(walked, fresh))
    body_values = _body_values(statement, walked)
    return replace(
        found,
        body_calls=body_calls,
        body_stores=_body_stores(walked, fresh),
        body_values=body_values,
        fixture=is_fixture(statement),
        asked=_asked((*calls, *body_calls, *(origin for _, origin in body_values))),
    )


def _asked(callees: Iterable[Callee | None]) -> frozenset[str]:
    """The module-level names these callees and value origins name (``("name", f)``,
    ``("attr", base, method)``, ``("value", base)``)."""
    return frozenset(c[1] for c in callees if c is not None and len(c) > 1)


def _run_nodes(roots: list[ast.AST]) -> list[ast.AST]:
    """The nodes that run when ``roots`` run: not the bodies of functions they define, but
    decorators and defaults, comprehensions and class bodies."""
    found: list[ast.AST] = []
    pending: list[ast.AST] = list(roots)
    while pending:
        current = pending.pop()
        found.append(current)
        if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef)):
            pending.extend(current.decorator_list)
            pending.extend(_defaults(current.args))
            continue
        if isinstance(current, ast.Lambda):
            pending.extend(_defaults(current.args))
            continue
        pending.extend(tree_walk.child_nodes(current))
    return found


def _defaults(args: ast.arguments) -> list[ast.expr]:
    return [*args.defaults, *(d for d in args.kw_defaults if d is not None)]


def _calls(nodes: list[ast.AST]) -> tuple[Callee, ...]:
    return tuple(_callee(n.func) for n in nodes if isinstance(n, ast.Call))


def _callee(func: ast.expr) -> Callee:
    if isinstance(func, ast.Name):
        return ("name", func.id)
    if isinstance(func, ast.Attribute):
        base: ast.expr = func.value
        while isinstance(base, ast.Attribute):
            base = base.value
        if isinstance(base, ast.Name):
            return ("attr", base.id, func.attr)
    return ("other",)


def _value_of(statement: ast.stmt) -> Callee | None:
    value = statement.value if isinstance(statement, (ast.Assign, ast.AnnAssign)) else None
    if value is None:
        return None
    if isinstance(value, ast.Call):
        callee = _callee(value.func)
        return None if callee[0] == "other" else callee
    base: ast.expr = value
    while isinstance(base, ast.Attribute):
        base = base.value
    if isinstance(base, ast.Name) and base is not value:
        return ("value", base.id)
    return None


def _stores(nodes: list[ast.AST]) -> bool:
    for current in nodes:
        if isinstance(current, (ast.Subscript, ast.Attribute)) and isinstance(
            current.ctx, (ast.Store, ast.Del)
        ):
            return True
        if isinstance(current, ast.Call) and _mutating_call(current):
            return True
    return False


def _mutating_call(call: ast.Call) -> bool:
    return isinstance(call.func, ast.Attribute) and call.func.attr in MUTATING_METHODS


def _body_stores(walked: StatementNodes, fresh: set[str]) -> bool:
    """Whether the body may change an object it did not create itself: a store or mutating
    call on anything but a local bound only to a new container, depth one; ``global``."""
    if any(isinstance(node, (ast.Global, ast.Nonlocal)) for node in walked.binders):
        return True
    return any(
        target is not None and not (isinstance(target, ast.Name) and target.id in fresh)
        for target in _changed_objects(walked)
    )


_NEW_CONTAINERS = (ast.Dict, ast.List, ast.Set, ast.ListComp, ast.DictComp, ast.SetComp)


def _fresh_locals(
    function: ast.FunctionDef | ast.AsyncFunctionDef, walked: StatementNodes
) -> set[str]:
    """Locals bound only to a container built right there (``d = {}``, ``xs = []``)."""
    fresh_targets: set[int] = set()
    for assignment in walked.assignments:
        if not isinstance(assignment.value, _NEW_CONTAINERS):
            continue
        if isinstance(assignment, ast.Assign):
            fresh_targets |= {id(t) for t in assignment.targets if isinstance(t, ast.Name)}
        else:
            fresh_targets.add(id(assignment.target))
    fresh: set[str] = set()
    spoiled = {a.arg for a in tree_walk.walk(function.args) if isinstance(a, ast.arg)}
    for node in walked.binders:
        if isinstance(node, ast.Name):  # a stored one
            (fresh if id(node) in fresh_targets else spoiled).add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            spoiled |= set(node.names)
    return fresh - spoiled


def _body_calls(walked: StatementNodes, fresh: set[str]) -> tuple[Callee, ...]:
    """What the body calls, but the methods of its own new containers."""
    found = (_callee(call.func) for call in walked.calls)
    return tuple(c for c in found if not (c[0] == "attr" and c[1] in fresh))


def _body_values(
    function: ast.FunctionDef | ast.AsyncFunctionDef, walked: StatementNodes
) -> tuple[tuple[str, Callee | None], ...]:
    values: list[tuple[str, Callee | None]] = [(a.arg, None) for a in walked.args]
    simple: dict[int, Callee | None] = {}
    for assignment in walked.assignments:
        targets = assignment.targets if isinstance(assignment, ast.Assign) else [assignment.target]
        if len(targets) == 1 and isinstance(targets[0], ast.Name):
            simple[id(targets[0])] = _value_of(assignment)
    for node in walked.binders:
        if isinstance(node, ast.Name):  # a stored one
            values.append((node.id, simple.get(id(node))))
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            values += [(name, None) for name in node.names]
        elif node is not function:  # a definition or an import
            values += [(name, None) for name in names_bound_by(node)]
    return tuple(values)


def _decorator(decorator: ast.expr) -> Callee:
    return _callee(decorator.func if isinstance(decorator, ast.Call) else decorator)


def _dynamic(walked: StatementNodes) -> bool:
    if any(node.id in _DYNAMIC for node in walked.names):
        return True
    if any(node.attr == "__dict__" for node in walked.attributes):
        return True
    return any(
        isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
        for node in walked.binders
    )


def _volatile(statement: ast.stmt, walked: StatementNodes) -> bool:
    """An attribute assignment outside the set-up methods."""
    if not any(isinstance(n, ast.Attribute) for n in walked.stored_into):
        return False
    pending: list[tuple[ast.AST, str | None]] = [(statement, None)]
    while pending:
        current, owner = pending.pop()
        if (
            isinstance(current, ast.Attribute)
            and isinstance(current.ctx, (ast.Store, ast.Del))
            and (owner is None or owner not in _SETUP_METHODS)
        ):
            return True
        inner = (
            current.name if isinstance(current, (ast.FunctionDef, ast.AsyncFunctionDef)) else owner
        )
        pending.extend((child, inner) for child in tree_walk.child_nodes(current))
    return False


def _imports(statement: ast.stmt) -> tuple[tuple[str, str, str, int], ...]:
    if isinstance(statement, ast.Import):
        return tuple(
            ((a.asname or a.name).split(".")[0], a.name.split(".")[0], "", 0)
            for a in statement.names
        )
    if isinstance(statement, ast.ImportFrom):
        module = statement.module or ""
        return tuple((a.asname or a.name, module, a.name, statement.level) for a in statement.names)
    return ()


def _globals_bound(walked: StatementNodes) -> frozenset[str]:
    declared: set[str] = set()
    for node in walked.binders:
        if isinstance(node, ast.Global):
            declared |= set(node.names)
    return frozenset(declared)


def _changed_objects(walked: StatementNodes) -> Iterator[ast.expr]:
    """What the statement changes in place: the objects stored into, mutating calls'
    receivers."""
    for node in walked.stored_into:
        yield node.value
    for call in walked.calls:
        if _mutating_call(call):
            assert isinstance(call.func, ast.Attribute)
            yield call.func.value


def _changed_bases(walked: StatementNodes) -> list[str]:
    """Leftmost names of stores into containers and attributes, and of mutating calls."""
    found: list[str] = []
    for target in _changed_objects(walked):
        while isinstance(target, (ast.Subscript, ast.Attribute)):
            target = target.value
        if isinstance(target, ast.Name):
            found.append(target.id)
    return found


def _bound_inside(walked: StatementNodes) -> frozenset[str]:
    """Names local to a function or class body (parameters and its own bindings)."""
    names = {current.arg for current in walked.args} | walked.own_bindings
    for current in walked.binders:
        if isinstance(current, (ast.Global, ast.Nonlocal)):
            names -= set(current.names)
    return frozenset(names)
