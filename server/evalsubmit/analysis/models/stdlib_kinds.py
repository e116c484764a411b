"""What a standard-library name is, a class or a function, read from the standard library's own
files: never from what the checking process happens to have imported, so the CLI, the server
and the library say the same (issue 25).

A pure-Python module is parsed, never run: its top-level ``def``, ``class``, imports and
assignments of names say what each name is, followed through ``from ... import`` and aliases.
A module with no Python source is compiled into the interpreter or a C extension of the
standard library: importing it runs no Python code and gives the same answer in every process,
so it is imported and looked at with ``getattr_static``.
"""

from __future__ import annotations

import ast
import builtins
import importlib
import sys
import sysconfig
import warnings
from dataclasses import field
from functools import cache
from pathlib import Path
from typing import Literal

from evalsubmit.core.records import record

Kind = Literal["class", "function"]

_BUILTINS = frozenset(dir(builtins))

_FOLLOW = 6
"""How many re-exports and aliases a name is followed through before it is called unknown."""

_NEVER_IMPORTED = frozenset({"antigravity", "this", "idlelib", "turtle", "turtledemo"})
"""Modules whose import does something (opens a browser, prints): never imported, even C ones."""


def stdlib_kind(qualname: str) -> Kind | None:
    """``"class"`` or ``"function"`` for a standard-library ``module.name`` (or
    ``module.Class.name``), ``None`` when not known (not the standard library, a constant, a
    name whose definition depends on the platform in ways the file does not settle)."""
    head, _, rest = qualname.partition(".")
    if head not in sys.stdlib_module_names or not rest or head in _NEVER_IMPORTED:
        return None
    parts = qualname.split(".")
    for split in range(len(parts) - 1, 0, -1):  # the longest module prefix first: os.path.join
        module = ".".join(parts[:split])
        if _source(module) is not None or _compiled(module):
            return _kind_in(module, tuple(parts[split:]), _FOLLOW)
    return None


def _kind_in(module: str, names: tuple[str, ...], budget: int) -> Kind | None:
    if budget <= 0:
        return None
    if _source(module) is None:
        return _compiled_kind(module, names) if _compiled(module) else None
    bindings = _bindings(module)
    found = bindings.get(names[0])
    if found is None:
        for star in bindings.get("*", ()):  # `from posix import *`
            assert star.target is not None and star.target[0] is not None
            kind = _kind_in(star.target[0], names, budget - 1)
            if kind is not None:
                return kind
        if len(names) == 1 and names[0] in _BUILTINS:  # `bytes_ = bytes`
            return _compiled_kind("builtins", names)
        return None
    kinds: set[Kind | None] = set()
    for binding in found:
        if binding.kind == "class" and len(names) > 1:
            kinds.add(binding.members.get(names[1]) if len(names) == 2 else None)
        elif binding.kind in ("class", "function"):
            kinds.add(None if len(names) > 1 else binding.kind)  # type: ignore[arg-type]
        elif binding.target is not None:
            target_module, target_names = binding.target
            if target_module is None:  # an alias of a name of the same module
                kinds.add(_kind_in(module, (*target_names, *names[1:]), budget - 1))
            else:
                kinds.add(_kind_in(target_module, (*target_names, *names[1:]), budget - 1))
        else:
            kinds.add(None)
    return kinds.pop() if len(kinds) == 1 else None


@record
class _Binding:
    """What one top-level statement binds a name to."""

    kind: str
    """``class``, ``function``, ``ref`` (a name of another module or of this one), ``other``."""
    target: tuple[str | None, tuple[str, ...]] | None = None
    members: dict[str, Kind] = field(default_factory=dict)
    """A class's methods and nested classes."""


@cache
def _stdlib_dir() -> Path:
    return Path(sysconfig.get_paths()["stdlib"])


@cache
def _source(module: str) -> Path | None:
    base = _stdlib_dir().joinpath(*module.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _is_package(module: str) -> bool:
    source = _source(module)
    return source is not None and source.name == "__init__.py"


@cache
def _compiled(module: str) -> bool:
    """A module of the standard library with no Python source (built in, or a C extension)."""
    if module.split(".")[0] in _NEVER_IMPORTED or _source(module) is not None:
        return False
    if module in sys.builtin_module_names:
        return True
    dynload = _stdlib_dir() / "lib-dynload"
    return any(dynload.glob(f"{module}.*.so")) or any(dynload.glob(f"{module}.so"))


def _compiled_kind(module: str, names: tuple[str, ...]) -> Kind | None:
    import inspect  # only a name of a compiled module needs it (a check of most files, none)

    try:
        found: object = importlib.import_module(module)
        for name in names:
            found = inspect.getattr_static(found, name)
    except (ImportError, AttributeError):
        return None
    if isinstance(found, type):
        return "class"
    if callable(found):
        return "function"
    return None


@cache
def _bindings(module: str) -> dict[str, list[_Binding]]:
    """Every top-level binding of each name of a pure-Python module (in ``if``/``try`` blocks
    too: a name bound differently on different paths is only known when they agree)."""
    source = _source(module)
    assert source is not None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(source.read_bytes())
    except (SyntaxError, ValueError, OSError):
        return {}
    package = module if _is_package(module) else module.rpartition(".")[0]
    found: dict[str, list[_Binding]] = {}
    pending: list[tuple[ast.stmt, bool]] = [(statement, False) for statement in tree.body]
    while pending:
        statement, conditional = pending.pop(0)
        for name, binding in _bound(statement, package):
            if not conditional and name != "*":
                found[name] = []  # what came before is overwritten here, whatever it was
            found.setdefault(name, []).append(binding)
        if isinstance(statement, (ast.If, ast.Try, ast.With)):
            inner = [
                *statement.body,
                *getattr(statement, "orelse", []),
                *(s for h in getattr(statement, "handlers", []) for s in h.body),
                *getattr(statement, "finalbody", []),
            ]
            pending[:0] = [(s, not isinstance(statement, ast.With)) for s in inner]
    return found


def _bound(statement: ast.stmt, package: str) -> list[tuple[str, _Binding]]:
    match statement:
        case ast.FunctionDef(name=name) | ast.AsyncFunctionDef(name=name):
            return [(name, _Binding("function"))]
        case ast.ClassDef(name=name, body=body):
            return [(name, _Binding("class", members=_members(body)))]
        case ast.ImportFrom(module=source, names=aliases, level=level):
            origin = _absolute(source, level, package)
            if origin is None:
                return [(a.asname or a.name, _Binding("other")) for a in aliases]
            return [
                ("*", _Binding("ref", (origin, ())))
                if a.name == "*"
                else (a.asname or a.name, _Binding("ref", (origin, (a.name,))))
                for a in aliases
            ]
        case ast.Import(names=aliases):
            return [((a.asname or a.name).split(".")[0], _Binding("other")) for a in aliases]
        case ast.Assign(targets=[ast.Name(id=name)], value=value):
            return [(name, _value_binding(value))]
        case ast.Assign(targets=targets):
            return [(t.id, _Binding("other")) for t in targets if isinstance(t, ast.Name)]
        case ast.AnnAssign(target=ast.Name(id=name), value=value) if value is not None:
            return [(name, _value_binding(value))]
    return []


def _value_binding(value: ast.expr) -> _Binding:
    """``X = other`` or ``X = module.attr``: what it names; anything else is not a class or a
    function the file says."""
    dotted: list[str] = []
    node = value
    while isinstance(node, ast.Attribute):
        dotted.insert(0, node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        if not dotted:
            return _Binding("ref", (None, (node.id,)))
        if node.id in sys.stdlib_module_names:  # `Lock = _thread.allocate_lock`
            return _Binding("ref", (node.id, tuple(dotted)))
    return _Binding("other")


def _members(body: list[ast.stmt]) -> dict[str, Kind]:
    members: dict[str, Kind] = {}
    for statement in body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            decorators = {d.id for d in statement.decorator_list if isinstance(d, ast.Name)}
            if not statement.decorator_list or decorators == {"staticmethod"}:
                members[statement.name] = "function"  # a classmethod, a property: not read
        elif isinstance(statement, ast.ClassDef):
            members[statement.name] = "class"
    return members


def _absolute(source: str | None, level: int, package: str) -> str | None:
    if not level:
        return source
    parts = package.split(".") if package else []
    if level - 1 > len(parts):
        return None
    base = parts[: len(parts) - (level - 1)]
    return ".".join([*base, source] if source else base) or None
