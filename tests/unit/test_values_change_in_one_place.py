"""A value the interpreter holds gets a new version only through ``values/store.py``, which puts
it in the layer of the walk under way (``values/heap.py``), apart from the value: a function
body that is not a call, a branch of an ``if``, another module's analysis each have their own.
A change made anywhere else would leak out of those walks: a store in one body seen by another,
one importer's change seen by the next.

Containers' contents are tuples read through properties without setters, so changing them in
place does not type-check and rebinding them raises; what is left to pin is setting the fields
a value is built with (``_entries``...), and changing an instance's arguments, anywhere but in
the store."""

from __future__ import annotations

import ast
from pathlib import Path

import evalsubmit.analysis

ANALYSIS = Path(evalsubmit.analysis.__file__).parent
STORE = ANALYSIS / "values" / "store.py"

_CONTENTS = frozenset(
    {"entries", "items", "item_origins", "complete", "args"}
    | {"_entries", "_items", "_item_origins", "_complete", "_args", "_layered"}
)
"""A dict's or a sequence's contents; an instance's arguments (a config gets new ones when a
field is set)."""
_HOLDING_VALUES = ("interp", "models", "rules", "target", "values")
"""The packages that hold values (the engine's caches have fields of these names too)."""
_KEYWORD_TABLES = frozenset({"keywords", "keyword_origins"})
_CHANGING_METHODS = frozenset({"clear", "update", "pop", "popitem", "setdefault", "__setitem__"})


def _through_args(node: ast.expr) -> bool:
    """``<x>.args.keywords`` / ``<x>.args.keyword_origins`` / ``<x>.args.star_unknown``: the
    arguments an instance already holds (fresh arguments being built are a plain name)."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Attribute)
        and node.value.attr == "args"
    )


def _building(tree: ast.Module) -> set[ast.AST]:
    """What a constructor sets on ``self``: the value being built, not a change of it."""
    inits = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.FunctionDef) and node.name == "__init__"
    ]
    return {
        part
        for init in inits
        for part in ast.walk(init)
        if isinstance(part, ast.Attribute)
        and isinstance(part.value, ast.Name)
        and part.value.id == "self"
    }


def changes_outside_the_store(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    building = _building(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign | ast.Delete):
            targets = list(node.targets)
        elif isinstance(node, ast.AugAssign | ast.AnnAssign):
            targets = [node.target]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            table = node.func.value
            if node.func.attr in _CHANGING_METHODS and _through_args(table):
                found.append(f"{path.name}:{node.lineno}: {ast.unparse(node.func)}")
        for target in targets:
            for part in ast.walk(target):
                if not isinstance(part, ast.Attribute | ast.Subscript) or part in building:
                    continue
                if isinstance(part, ast.Subscript):
                    changed = _through_args(part.value)
                else:
                    changed = part.attr in _CONTENTS or (
                        part.attr == "star_unknown" and _through_args(part)
                    )
                if changed and isinstance(part.ctx, ast.Store | ast.Del):
                    found.append(f"{path.name}:{node.lineno}: {ast.unparse(part)}")
    return found


def test_no_value_changes_outside_the_store() -> None:
    packages = [ANALYSIS / package for package in _HOLDING_VALUES]
    sources = [path for package in packages for path in package.glob("*.py") if path != STORE]
    assert len(sources) > 50
    found = [change for path in sorted(sources) for change in changes_outside_the_store(path)]
    assert found == []


def test_the_scan_sees_each_kind_of_change(tmp_path: Path) -> None:
    module = tmp_path / "changes.py"
    module.write_text(
        "value.entries = ()\n"
        "value.items, value.item_origins = (), ()\n"
        "value.complete = False\n"
        "instance.args.keywords['x'] = 1\n"
        "del instance.args.keyword_origins['x']\n"
        "instance.args.star_unknown = True\n"
        "instance.args.keywords.update(other)\n"
        "config.args = new_args\n"
        "value._entries, value._layered = (), True\n"
        "args.keywords['x'] = 1\n"  # arguments being built: not a change
        "class Built:\n"
        "    def __init__(self):\n"
        "        self._entries = ()\n"  # a value being built: not a change
        "state.entries_seen = 1\n",
        encoding="utf-8",
    )
    assert [change.split(": ", 1)[1] for change in changes_outside_the_store(module)] == [
        "value.entries",
        "value.items",
        "value.item_origins",
        "value.complete",
        "instance.args.keywords['x']",
        "instance.args.keyword_origins['x']",
        "instance.args.star_unknown",
        "config.args",
        "value._entries",
        "value._layered",
        "instance.args.keywords.update",
    ]
    assert changes_outside_the_store(STORE)  # the store itself does change values
