"""``overrides.class_statements`` finds every class statement a full walk of the tree finds,
wherever it is nested, and again on a tree that reuses an earlier tree's statements."""

from __future__ import annotations

import ast

from evalsubmit.analysis.interp.overrides import class_statements
from evalsubmit.analysis.source import tree_walk

NESTED = """\
import x
class Top(Base):
    class Inner(Top):
        pass
def f():
    class InFunction(Top):
        def m(self):
            class InMethod(Inner):
                pass
if x:
    class InIf(Top): pass
else:
    class InElse(Top): pass
for i in x:
    pass
else:
    class InForElse(Top): pass
while x:
    class InWhile(Top): pass
with x:
    class InWith(Top): pass
try:
    class InTry(Top): pass
except E:
    class InHandler(Top): pass
else:
    class InTryElse(Top): pass
finally:
    class InFinally(Top): pass
try:
    pass
except* E:
    class InStarHandler(Top): pass
match x:
    case 1:
        class InCase(Top): pass
async def g():
    async for i in x:
        class InAsyncFor(Top): pass
    async with x:
        class InAsyncWith(Top): pass
y = [lambda: 1 for c in x]
"""


def full_walk(tree: ast.Module) -> set[str]:
    return {node.name for node in tree_walk.walk(tree) if isinstance(node, ast.ClassDef)}


def test_every_nested_class_statement_is_found() -> None:
    tree = ast.parse(NESTED)
    found = {node.name for node in class_statements(tree)}
    assert found == full_walk(tree)
    assert len(found) == 17


def test_a_tree_reusing_statements_finds_the_same_and_the_new_ones() -> None:
    tree = ast.parse(NESTED)
    class_statements(tree)  # remembered per statement
    edited = ast.parse("class Added(Top):\n    class AddedInner: pass\n")
    reused = ast.Module(body=[*tree.body[:3], *edited.body, *tree.body[3:]], type_ignores=[])
    assert {node.name for node in class_statements(reused)} == full_walk(reused)
    without = ast.Module(body=tree.body[2:], type_ignores=[])
    assert {node.name for node in class_statements(without)} == full_walk(without)
