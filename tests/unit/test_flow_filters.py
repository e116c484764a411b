"""``leaves_loop`` with the module's text (a word test before the walk) answers as the walk, and
the loop's name in labels is the same when it is kept on the node."""

from __future__ import annotations

import ast

import pytest

from evalsubmit.analysis.interp.flow import element_label, leaves_loop
from evalsubmit.analysis.values.domain import Known
from evalsubmit.core.lines import split_lines_keepends

LOOPS = {
    "plain": ("for x in y:\n    f(x)\n", False),
    "break": ("for x in y:\n    if x:\n        break\n", True),
    "return": ("def g():\n    for x in y:\n        return x\n", True),
    "return on the header line": ("def g():\n    for x in y: return x\n", True),
    "break of an inner loop": ("for x in y:\n    for z in x:\n        break\n", False),
    "return in an inner loop": (
        "def g():\n    for x in y:\n        while x:\n            return 1\n",
        True,
    ),
    "the words in strings": ("for x in y:\n    f('break', 'return')\n", False),
    "a return in a nested def": ("for x in y:\n    def h():\n        return 1\n", False),
    "non-ASCII": ("for x in y:\n    f('é')\n", False),
}


def _loop(tree: ast.Module) -> ast.For:
    return next(n for n in ast.walk(tree) if isinstance(n, ast.For))


@pytest.mark.parametrize("name", LOOPS)
def test_the_text_filter_gives_the_walks_answer(name: str) -> None:
    source, expected = LOOPS[name]
    loop = _loop(ast.parse(source))
    assert leaves_loop(loop.body, tuple(split_lines_keepends(source))) is expected
    assert leaves_loop(loop.body) is expected


def test_the_label_is_the_same_when_kept() -> None:
    loop = _loop(ast.parse("for runner in make_runners('nightly'):\n    f(runner)\n"))
    first = element_label(loop, 0, Known(1))
    assert first == "for the 1st runner of make_runners('nightly')"
    assert element_label(loop, 0, Known(1)) == first
    assert element_label(loop, 1, Known(2)) == "for the 2nd runner of make_runners('nightly')"
