"""Binding a call's arguments to the called function's parameters, and where each came from.

The interpreter binds arguments in three places: a call of the user's helper (:mod:`.calls`), a
constructor run for a user-class instance (:mod:`.objects`), and a body walked with its
parameters (:mod:`.interpreter`). One home keeps the rules the same in all three: defaults as
evaluated at the definition, ``*args``/``**kwargs`` of unknown content, a bound receiver, and the
origin of each value (where a finding about it should land).
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from evalsubmit.analysis.interp.statement_nodes import names_bound_by
from evalsubmit.analysis.source import tree_walk
from evalsubmit.analysis.values.dict_entries import named_entries
from evalsubmit.analysis.values.domain import DictValue, Known, Origin, Unknown, Value
from evalsubmit.analysis.values.objects import CallArgs, FunctionValue

if TYPE_CHECKING:
    from evalsubmit.analysis.interp.interpreter import Interpreter
    from evalsubmit.analysis.source.parse import ParsedModule

_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def rebound_globals(parsed: ParsedModule) -> frozenset[str]:
    """The module globals some function of the module rebinds through ``global`` (declared
    there and bound in it, by any kind of binding). Where such a function may have run
    before, the global's value at the top level is not its value: read from a function, it
    is unknown (:attr:`Env.rebound`). A text without ``global`` is not walked."""
    if not parsed.spells_global:  # (its lines joined are its text, searched once when parsed)
        return frozenset()
    found: set[str] = set()
    for function in tree_walk.walk(parsed.tree):
        if isinstance(function, _FUNCTIONS):
            found |= _declared_and_bound(function, ast.Global)
    return frozenset(found)


def _declared_and_bound(
    function: ast.AST, declaration: type[ast.Global] | type[ast.Nonlocal]
) -> set[str]:
    """The names a ``declaration`` statement in ``function`` declares and some statement in
    it binds (nested functions too: a superset, never less)."""
    nodes = tree_walk.walk(function)
    declared = {name for node in nodes if isinstance(node, declaration) for name in node.names}
    if not declared:
        return declared
    return declared & {name for node in nodes for name in names_bound_by(node)}


def first_parameter(arguments: ast.arguments) -> str | None:
    """The name of the first positional parameter (a method's ``self`` or ``cls``), if any."""
    positional = arguments.posonlyargs or arguments.args
    return positional[0].arg if positional else None


def rebound_locals(function: ast.AST, spelled: bool = True) -> frozenset[str]:
    """The names of ``function``'s scope that a function nested in it rebinds through
    ``nonlocal`` (a superset: any nested level), as :func:`rebound_globals` for a module:
    read from a nested function, or after a call made in the body, they are unknown (the
    nested function may have run). Found once per definition. ``spelled``: whether the
    text of the module holding it spells ``nonlocal`` at all (without, there are none, and
    the body is not walked for them: most modules)."""
    if not spelled:
        return frozenset()
    found: frozenset[str] | None = getattr(function, _NONLOCALS, None)
    if found is None:
        names: set[str] = set()
        for inner in tree_walk.walk(function):
            if inner is not function and isinstance(inner, _FUNCTIONS):
                names |= _declared_and_bound(inner, ast.Nonlocal)
        found = frozenset(names)
        setattr(function, _NONLOCALS, found)
    return found


_NONLOCALS = "_evalsubmit_rebound_locals"


def bind_arguments(
    arguments: ast.arguments, args: CallArgs, function: FunctionValue
) -> dict[str, Value]:
    """Parameter -> value for a call: the call's arguments, else the parameter's default (as
    evaluated when the function was defined); the receiver first for a bound method."""
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    values: dict[str, Value] = dict(function.defaults)
    positional = list(args.positional)
    if function.bound_self is not None and names:
        positional.insert(0, function.bound_self)
    values.update(zip(names, positional, strict=False))
    values.update(args.keywords)
    if args.star_unknown:
        # which parameter a *args / **kwargs of unknown content fills is not known
        explicit = set(args.keywords) | set(names[: len(positional)])
        return {name: value for name, value in values.items() if name in explicit}
    return values


def bind_call(
    interp: Interpreter,
    function: FunctionValue,
    arguments: ast.arguments,
    args: CallArgs,
    node: ast.Call,
) -> tuple[dict[str, Value], dict[str, Origin]]:
    """Parameter -> value for a call at ``node``, and where each value was written: the
    argument at this call (followed back when it is itself a parameter of the caller's
    call-site walk), or the parameter's default in the definition."""
    values = bind_arguments(arguments, args, function)
    passed: dict[str, Origin] = {}
    names = [a.arg for a in [*arguments.posonlyargs, *arguments.args]]
    tail = names[len(names) - len(arguments.defaults) :]
    defaults = list(zip(tail, arguments.defaults, strict=True))
    kwonly = zip(arguments.kwonlyargs, arguments.kw_defaults, strict=True)
    defaults += [(a.arg, d) for a, d in kwonly if d]
    module = function.module
    for name, default in defaults:
        if module is not None:
            passed[name] = module.origin(default)
    offset = 1 if function.bound_self is not None else 0
    plain = [a for a in node.args if not isinstance(a, ast.Starred)]
    if len(plain) == len(node.args):
        for name, argument in zip(names[offset:], plain, strict=False):
            passed[name] = _written_at(interp, argument, argument)
    for keyword in node.keywords:
        if keyword.arg is not None:
            passed[keyword.arg] = _written_at(interp, keyword.value, keyword)
    for name, origin in args.keyword_origins.items():
        passed.setdefault(name, origin)
    # a parameter the helper annotates declares what it takes: a finding about its value
    # stays in the helper, where the declared type is used
    for parameter in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]:
        if parameter.annotation is not None:
            passed.pop(parameter.arg, None)
    if arguments.kwarg is not None and not args.star_unknown:
        known = {*names, *(a.arg for a in arguments.kwonlyargs)}
        extra = {name: value for name, value in args.keywords.items() if name not in known}
        entries = named_entries(extra, passed)
        values[arguments.kwarg.arg] = DictValue(entries, interp.frame.source.origin(node))
    return values, passed


def _written_at(interp: Interpreter, value: ast.expr, argument: ast.AST) -> Origin:
    """Where an argument's value was written: a parameter of the walk this call is in
    takes it from that walk's call site; anything else is written here."""
    if isinstance(value, ast.Name) and value.id in interp.frame.passed:
        return interp.frame.passed[value.id]
    return interp.frame.source.origin(argument)


def bind_parameters(
    interp: Interpreter, args: ast.arguments, values: dict[str, Value] | None
) -> None:
    """Bind a body's parameters in the current frame: the values given, else what each
    parameter's annotation says (``*args``/``**kwargs`` unknown)."""
    names = interp.frame.env.names
    for parameter in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        value = (values or {}).get(parameter.arg)
        if value is None:
            value = interp.annotated_value(parameter.annotation)
        names[parameter.arg] = value
    for extra in (args.vararg, args.kwarg):
        if extra is not None:
            names[extra.arg] = (values or {}).get(extra.arg) or Unknown("a parameter")


def splat_into(args: CallArgs, value: DictValue) -> None:
    """``**value``: its string-keyed entries become keywords (where they were written)."""
    given: list[str] = []
    for entry in value.entries:
        if isinstance(entry.key, Known) and isinstance(entry.key.obj, str):
            args.keywords[entry.key.obj] = entry.value
            given.append(entry.key.obj)
            if entry.origin is not None:
                args.keyword_origins[entry.key.obj] = entry.origin
        else:
            args.star_unknown = True
            for name in given:  # a key not known statically may be any of them: replaced
                args.keywords[name] = Unknown("may be replaced by a key not known statically")
                args.keyword_origins.pop(name, None)
    if not value.complete:
        args.star_unknown = True


def merged_arguments(stored: CallArgs, call: CallArgs) -> CallArgs:
    """A partial's arguments then the call's; the call's keywords win."""
    return CallArgs(
        [*stored.positional, *call.positional],
        {**stored.keywords, **call.keywords},
        {**stored.keyword_origins, **call.keyword_origins},
        stored.star_unknown or call.star_unknown,
    )
