"""The one-walk sorting of a statement's nodes that :mod:`effects` reads: which names a
statement binds in its own scope, and the effects that follow, on the shapes that differ from
a plain walk (comprehensions, lambdas, nested definitions, handlers, patterns)."""

from __future__ import annotations

import ast
import textwrap

import pytest

from evalsubmit.analysis.interp.effects import effects
from evalsubmit.analysis.interp.statement_nodes import StatementNodes, names_bound_in
from evalsubmit.analysis.source import tree_walk


def _statement(code: str) -> ast.stmt:
    return ast.parse(textwrap.dedent(code)).body[0]


@pytest.mark.parametrize(
    ("code", "bound"),
    [
        ("x = [y for y in range(3)]", {"x"}),
        ("total = sum(n for n in xs if (m := n))", {"total"}),
        ("f = lambda a, b=1: (c := a)", {"f"}),
        ("if ok:\n    def helper(): inner = 1\nelse:\n    import os.path as p", {"helper", "p"}),
        ("try:\n    import json\nexcept ValueError as error:\n    pass", {"json", "error"}),
        (
            "match v:\n    case {'k': [a, *rest], **others} if a: b = 1",
            {"a", "rest", "others", "b"},
        ),
        ("for i, (j, k) in pairs:\n    del k", {"i", "j", "k"}),
        ("with open(p) as handle, lock:\n    class Local: field = 1", {"handle", "Local"}),
    ],
)
def test_own_bindings_of_a_statement(code: str, bound: set[str]) -> None:
    statement = _statement(code)
    assert StatementNodes.of(statement).own_bindings == bound
    # the one reading the loop walker and a failed statement use (not a definition: its own
    # bindings are its body's)
    assert names_bound_in([statement]) == bound


def test_a_definition_binds_its_body_not_its_decorators_defaults_or_nested_scopes() -> None:
    function = _statement(
        """
        @register(name := "x")
        def run(a, *rest, k=(d := 1), **kw):
            global COUNT
            local = [item for item in a]
            def nested():
                hidden = 2
            return lambda q: (w := q)
        """
    )
    nodes = StatementNodes.of(function)
    assert nodes.own_bindings == {"local", "nested"}  # ``global`` declares, it does not bind
    assert nodes.nodes == tree_walk.walk(function)  # every node, in the usual order
    found = effects(function)
    # parameters (its own and its lambdas') and body bindings are local; a global is not
    assert found.writes_when_called == {"COUNT"}
    assert found.binds == {"run"}
    assert found.body_stores is True  # ``global``


def test_effects_of_a_function_body() -> None:
    function = _statement(
        """
        def collect(config):
            rows = []
            rows.append(config)
            CACHE[config.name] = rows
            other.items.extend(rows)
            return build(rows)
        """
    )
    found = effects(function)
    assert found.writes_when_called == {"CACHE", "other"}
    assert found.body_calls == (("attr", "other", "extend"), ("name", "build"))
    assert found.body_values == (("config", None), ("rows", None))
    assert found.body_stores is True  # CACHE and other are not its own new containers


def test_effects_of_top_level_statements() -> None:
    store = effects(_statement("settings.values['k'] = compute(x)"))
    assert store.writes == {"settings"}
    assert store.calls == (("name", "compute"),)
    assert store.stores is True
    assert store.volatile is False  # an item, not an attribute
    attribute = effects(_statement("runner.config = make()"))
    assert attribute.volatile is True
    dynamic = effects(_statement("setattr(obj, name, 1)"))
    assert dynamic.dynamic is True
    star = effects(_statement("from helpers import *"))
    assert star.dynamic is True
    scoped = effects(_statement("handler = register(lambda event: seen.append(event))"))
    assert scoped.calls == (("name", "register"),)  # the lambda's body does not run here
    assert scoped.stores is False
    assert scoped.writes == {"handler", "seen"}
