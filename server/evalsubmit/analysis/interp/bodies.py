"""Calls of the user's functions: a body walked with the arguments bound, in its own module
and scope, for the value the call returns (or what a fixture gives, or the environment a
constructor leaves).

Functions of the :class:`~.interpreter.Interpreter` (calls, objects and test code ask for
them), kept apart from it because they are the one place that builds a frame for a body.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.binding import (
    bind_call,
    bind_parameters,
    first_parameter,
    rebound_locals,
)
from evalsubmit.analysis.interp.cached import unchangeable
from evalsubmit.analysis.interp.frames import MAX_CALL_DEPTH, CallSite, Frame, FunctionNode
from evalsubmit.analysis.source import tree_walk
from evalsubmit.analysis.values.domain import NEVER_RETURNS, Known, Unknown, Value
from evalsubmit.analysis.values.env import Env
from evalsubmit.analysis.values.objects import (
    CallArgs,
    ClassRef,
    ClassValue,
    FunctionValue,
    ModuleValue,
)

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter


def evaluate_call(
    interp: Interpreter,
    function: FunctionValue,
    values: dict[str, Value],
    *,
    site: CallSite | None = None,
    ends: list[Env] | None = None,
) -> Value:
    """The value a call of ``function`` returns, its body walked with ``values`` bound; the
    return annotation's value when it is not one known value. With a ``site`` whose walk
    is set while facts are recorded, the walk records them too, labelled with it;
    otherwise it is silent. ``ends`` gets the names the walk bound in the body, when it
    walked it."""
    returns: list[Value] = []
    end = _walk_call(interp, function, values, returns, site)
    if ends is not None and end.bindings:
        ends.append(end)
    if not returns and end.ended in {"raise", "endless"} and not is_stub(function.node):
        return Unknown(NEVER_RETURNS)  # every path raised: the statement making it ends
    if len(returns) == 1 and not isinstance(returns[0], Unknown):
        return returns[0]
    return declared_return(interp, function)


def declared_return(interp: Interpreter, function: FunctionValue) -> Value:
    """The value of ``function``'s return annotation, read in its own module."""
    node = function.node
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.returns is None:
        return Unknown("a parameter")
    frame = replace(
        interp.frame,
        env=Env(parent=function.closure or interp.module_env),
        source=function.module or interp.frame.source,
    )
    with interp.enter(frame):
        return interp.annotated_value(node.returns)


def walk_body(
    interp: Interpreter,
    function: FunctionValue,
    values: dict[str, Value],
    *,
    site: CallSite | None = None,
) -> Env:
    return _walk_call(interp, function, values, [], site, propagate=False)


def fixture_value(interp: Interpreter, fixture: FunctionValue, values: dict[str, Value]) -> Value:
    """What a fixture gives a test (its return, or its first ``yield``); also what a
    ``@contextmanager`` function gives ``with ... as name``."""
    definition = fixture.node
    if not isinstance(definition, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return Unknown("a fixture")
    if fixture.bound_self is not None:
        receiver = first_parameter(definition.args)
        values = {receiver: fixture.bound_self, **values} if receiver is not None else values
    returns: list[Value] = []
    lines = fixture.module.parsed.lines if fixture.module is not None else None
    _walk_call(interp, fixture, values, returns, None, yields=is_generator(definition, lines))
    if len(returns) == 1 and not isinstance(returns[0], Unknown):
        return returns[0]
    return declared_return(interp, fixture)


def _walk_call(
    interp: Interpreter,
    function: FunctionValue,
    values: dict[str, Value],
    returns: list[Value],
    site: CallSite | None,
    *,
    yields: bool = False,
    propagate: bool = True,
) -> Env:
    """Walk ``function``'s body, in its own module and scope, with ``values`` bound."""
    definition = function.node
    if definition is None:
        return Env()
    if interp.frame.depth >= MAX_CALL_DEPTH or id(definition) in interp.frame.active:
        return Env()
    walk = site.walk if site is not None else None
    record = walk is not None and interp.frame.collect
    caller = interp.frame.env
    source = function.module or interp.frame.source
    rebound = rebound_locals(definition, source.parsed.spells_nonlocal)
    frame = Frame(
        env=Env(parent=function.closure or interp.module_env, rebound=rebound),
        source=source,
        collect=record,
        defer=False,
        returns=returns,
        yields=yields,
        depth=interp.frame.depth + 1,
        active=interp.frame.active | {id(definition)},
        context=(*interp.frame.context, walk) if record and walk else interp.frame.context,
        owner=function.owner,
        receiver=_first_argument(definition, values) if function.owner is not None else None,
        passed=dict(site.passed) if site is not None else {},
    )
    failures = len(interp.internal_errors)
    with interp.enter(frame):
        bind_parameters(interp, definition.args, values)
        if isinstance(definition, ast.Lambda):
            returns.append(interp.eval(definition.body))
        else:
            interp.walk(definition.body)
            end = frame.env
            sure = not end.opaque and len(interp.internal_errors) == failures
            if not yields and end.ended is None and sure:
                returns.append(Known(None))  # a path falls off the end: it returns None
            if not sure and end.ended is not None and not returns:
                end.ended = None  # an opaque call or an engine bug: not sure it raised
    if propagate:
        # attributes it stored on objects it was given are the caller's to see
        caller.names.update((k, v) for k, v in frame.env.bindings.items() if k.startswith("@"))
    return frame.env


def is_stub(node: ast.AST | None) -> bool:
    """A body that only raises ``NotImplementedError`` (an abstract method, a placeholder a
    subclass or a later version fills in): its declared return type stands for it."""
    if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False
    body = node.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]  # the docstring
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def _first_argument(
    definition: FunctionNode | ast.Lambda, values: dict[str, Value]
) -> Value | None:
    receiver = first_parameter(definition.args)
    return values.get(receiver) if receiver is not None else None


def is_generator(
    definition: ast.FunctionDef | ast.AsyncFunctionDef, lines: Sequence[str] | None = None
) -> bool:
    """Whether calling it returns a generator: a ``yield`` in its own body (not nested defs).
    Remembered on the node itself, which lives exactly as long as the answer is valid.
    ``lines``: the text of the module the definition is in, when the caller has it."""
    known: bool | None = getattr(definition, "_evalsubmit_yields", None)
    if known is None:
        known = _may_yield(definition, lines) and _yields(definition)
        definition._evalsubmit_yields = known  # type: ignore[union-attr]
    return known


def _may_yield(
    definition: ast.FunctionDef | ast.AsyncFunctionDef, lines: Sequence[str] | None
) -> bool:
    """False when no line of the definition holds the word ``yield``: most functions, told
    without walking every node of the body (see docs/benchmarks.md)."""
    if lines is None or definition.end_lineno is None:
        return True
    text = "".join(lines[definition.lineno - 1 : definition.end_lineno])
    # a keyword is only ever ASCII, but a non-ASCII text is walked anyway (no guess is made)
    return "yield" in text or not text.isascii()


def _yields(definition: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    pending: list[ast.AST] = list(definition.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        pending.extend(tree_walk.child_nodes(node))
    return False


def yielded_items(
    interp: Interpreter, function: FunctionValue, args: CallArgs, node: ast.Call
) -> list[Value] | None:
    """What the generator made by the call ``node`` of ``function`` yields, in order, when
    certain: the call is what a ``for`` loop iterates (so nothing else drains the generator
    first), the body is a run of ``yield VALUE`` statements (after a docstring), and each value
    is built of literals, its parameters bound to values nothing can change in place, and the
    names of classes and modules from outside the code (``GymAgentTaskRunner``, ``Path``),
    whatever runs between the call and the iteration (the loop's body, between two yields).
    The values are evaluated silently: a generator runs its body only as far as it is
    iterated, so what building them would report is not this call's to report (the body's
    own walk reports it)."""
    definition = function.node
    if not isinstance(definition, ast.FunctionDef) or not getattr(node, _ITERATED_ONCE, False):
        return None
    yielded = _straight_yields(definition)
    if yielded is None or interp.frame.depth >= MAX_CALL_DEPTH:
        return None
    parameters = {p.arg for p in [*definition.args.posonlyargs, *definition.args.args]}
    parameters |= {p.arg for p in definition.args.kwonlyargs}
    frame = Frame(
        env=Env(parent=function.closure or interp.module_env),
        source=function.module or interp.frame.source,
        collect=False,
        defer=False,
        depth=interp.frame.depth + 1,
        active=interp.frame.active | {id(definition)},
    )
    values, _ = bind_call(interp, function, definition.args, args, node)
    with interp.enter(frame):
        bind_parameters(interp, definition.args, values)
        bound = interp.frame.env.bindings
        if not all(unchangeable(bound.get(name, Unknown())) for name in parameters):
            return None
        for expression in yielded:
            names = [n for n in tree_walk.walk(expression) if isinstance(n, ast.Name)]
            if any(n.id not in parameters and not _from_outside(interp.eval(n)) for n in names):
                return None
        return [interp.eval(expression) for expression in yielded]


_ITERATED_ONCE = "_evalsubmit_iterated_once"


def iterated_once(call: ast.Call) -> None:
    """Note that ``call`` is what a ``for`` statement iterates: its value is drained by that
    loop alone (a syntactic fact, kept on the node)."""
    setattr(call, _ITERATED_ONCE, True)


def _from_outside(value: Value) -> bool:
    """A class or module of the SDK, the standard library or a package: never one of the
    user's, which may be changed or defined again by the code that runs in between."""
    match value:
        case ClassValue(ref=ClassRef(user=None)) | ModuleValue():
            return True
    return False


#: What a yielded value may be built of: no attribute, subscript or operator that could read
#: what changes between the call and the iteration.
_PLAIN_PARTS = (
    ast.Call,
    ast.Name,
    ast.Constant,
    ast.keyword,
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Set,
)


def _straight_yields(definition: ast.FunctionDef) -> list[ast.expr] | None:
    """The values of a body that is only ``yield VALUE`` statements (after a docstring), each
    of :data:`_PLAIN_PARTS`; None for any other body. Remembered on the node."""
    known: list[ast.expr] | bool | None = getattr(definition, "_evalsubmit_straight", False)
    if known is not False:
        return known  # type: ignore[return-value]
    body = definition.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    values: list[ast.expr] | None = []
    for statement in body:
        match statement:
            case ast.Expr(value=ast.Yield(value=ast.expr() as value)) if all(
                isinstance(node, _PLAIN_PARTS) for node in tree_walk.walk(value)
            ):
                values.append(value)  # type: ignore[union-attr]
            case _:
                values = None
                break
    if not body:
        values = None
    definition._evalsubmit_straight = values  # type: ignore[attr-defined]
    return values
