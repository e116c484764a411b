"""``is_generator`` with the module's text (a word test before the walk) answers as the walk."""

from __future__ import annotations

import ast

import pytest

from evalsubmit.analysis.interp.bodies import is_generator
from evalsubmit.core.lines import split_lines_keepends

CASES = {
    "plain": ("def f():\n    return 1\n", False),
    "yields": ("def f():\n    x = 1\n    yield x\n", True),
    "yield from": ("def f():\n    yield from range(3)\n", True),
    "yield in an expression": ("def f():\n    print((yield))\n", True),
    "the word in a string": ("def f():\n    return 'yield'\n", False),
    "only a nested def yields": ("def f():\n    def g():\n        yield 1\n    return g\n", False),
    "a later function yields": ("def f():\n    return 1\n\ndef g():\n    yield 2\n", False),
}


@pytest.mark.parametrize("name", CASES)
def test_the_text_filter_gives_the_walks_answer(name: str) -> None:
    source, expected = CASES[name]
    with_text = ast.parse(source).body[0]
    without_text = ast.parse(source).body[0]
    assert isinstance(with_text, ast.FunctionDef) and isinstance(without_text, ast.FunctionDef)
    assert is_generator(with_text, tuple(split_lines_keepends(source))) is expected
    assert is_generator(without_text) is expected


def test_a_non_ascii_definition_is_walked() -> None:
    source = "def f():\n    s = 'é'\n    yield s\n"
    definition = ast.parse(source).body[0]
    assert isinstance(definition, ast.FunctionDef)
    assert is_generator(definition, tuple(split_lines_keepends(source)))
