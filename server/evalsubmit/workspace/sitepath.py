"""What :mod:`site` would add to ``sys.path``, found by reading files instead of running them.

For each site folder, in :mod:`site`'s order, the folder itself and then the entries of its
``*.pth`` files (sorted by name, as ``site.addpackage`` reads them). A line that names a folder
is a path entry. A line starting with ``import`` is code: site runs it, we never do. Editable
installs put their mapping behind such lines, so the module they import is *read* (parsed, not
run) for the mapping it declares:

* setuptools >= 64 (PEP 660, ``__editable__.<dist>.pth`` + ``__editable___<dist>_finder.py``):
  the literal dicts ``MAPPING`` (module name -> source folder or file) and ``NAMESPACES``;
* ``editables`` (hatchling's exact mode, ``_<dist>.pth`` + ``_editable_impl_<dist>.py``):
  the literal ``F.map_module("name", "/path/name/__init__.py")`` calls.

Editable installs that are a plain path line (setuptools' lenient/src layouts, uv, pdm, flit,
poetry, ``setup.py develop``'s ``easy-install.pth``) are path entries. Anything else an import
line would do at start-up is unknown to us, and ignored.
"""

from __future__ import annotations

import ast
import os
from pathlib import Path

from evalsubmit.core.records import Record

MAX_PTH_FILES = 500
"""``.pth`` files read per site folder."""
MAX_PTH_BYTES = 256_000
MAX_FINDER_BYTES = 512_000
"""An editable finder module larger than this is not read (setuptools' are a few KB)."""


class SitePath(Record, hash=False):
    """The search path after the site folders' ``.pth`` files, and the editable mappings."""

    __slots__ = (
        "entries",
        "mapping",
        "namespaces",
        "watched",
    )
    entries: list[Path]
    mapping: dict[str, Path]
    """Editable finders: dotted module name -> its source (package folder, or module file)."""
    namespaces: dict[str, list[Path]]
    """Editable finders' namespace packages: name -> their folders."""
    watched: list[Path]
    """The files read (``.pth`` files, finders): a change to one means reading again."""

    def __init__(
        self,
        entries: list[Path] | None = None,
        mapping: dict[str, Path] | None = None,
        namespaces: dict[str, list[Path]] | None = None,
        watched: list[Path] | None = None,
    ) -> None:
        self.entries = [] if entries is None else entries
        self.mapping = {} if mapping is None else mapping
        self.namespaces = {} if namespaces is None else namespaces
        self.watched = [] if watched is None else watched


def read_site(folders: tuple[Path, ...]) -> SitePath:
    found = SitePath()
    for folder in folders:
        if not folder.is_dir():
            continue
        _add(found.entries, folder)
        for pth in _pth_files(folder):
            found.watched.append(pth)
            _read_pth(folder, pth, found)
    return found


def _pth_files(folder: Path) -> list[Path]:
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    # site skips hidden .pth files (3.13+, and macOS's "._" resource forks) the same way.
    return [folder / n for n in names if n.endswith(".pth") and not n.startswith(".")][
        :MAX_PTH_FILES
    ]


def _read_pth(folder: Path, pth: Path, found: SitePath) -> None:
    try:
        if pth.stat().st_size > MAX_PTH_BYTES:
            return
        text = pth.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return
    for line in text.splitlines():
        if line.startswith("#") or not line.strip():
            continue
        if line.startswith(("import ", "import\t")):
            for module in _imported(line):
                _read_finder(folder / f"{module}.py", found)
            continue
        entry = Path(os.path.normpath(folder / line.rstrip()))
        if entry.exists():
            _add(found.entries, entry)


def _imported(line: str) -> list[str]:
    """The top-level modules an import line of a ``.pth`` file imports (parsed, never run)."""
    try:
        tree = ast.parse(line)
    except (SyntaxError, ValueError):
        return []
    return [
        alias.name
        for node in tree.body
        if isinstance(node, ast.Import)
        for alias in node.names
        if "." not in alias.name
    ]


def _read_finder(path: Path, found: SitePath) -> None:
    """The mapping an editable finder module declares, read from its literals."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_FINDER_BYTES:
            return
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (OSError, SyntaxError, ValueError):
        return
    found.watched.append(path)
    for node in tree.body:
        target, value = _assignment(node)
        if target == "MAPPING" and isinstance(literal := _literal(value), dict):
            for name, source in literal.items():
                if isinstance(name, str) and isinstance(source, str):
                    found.mapping.setdefault(name, Path(source))
        elif target == "NAMESPACES" and isinstance(literal := _literal(value), dict):
            for name, folders in literal.items():
                if isinstance(name, str) and isinstance(folders, list):
                    paths = [Path(f) for f in folders if isinstance(f, str)]
                    found.namespaces.setdefault(name, paths)
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        if isinstance(call.func, ast.Attribute) and call.func.attr == "map_module":
            args = [_literal(a) for a in call.args]
            if len(args) == 2 and all(isinstance(a, str) for a in args):
                source = Path(str(args[1]))
                if source.name == "__init__.py":
                    source = source.parent
                found.mapping.setdefault(str(args[0]), source)


def _assignment(node: ast.stmt) -> tuple[str | None, ast.expr | None]:
    if isinstance(node, ast.Assign) and len(node.targets) == 1:
        target = node.targets[0]
        return (target.id if isinstance(target, ast.Name) else None), node.value
    if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
        return node.target.id, node.value
    return None, None


def _literal(node: ast.expr | None) -> object:
    if node is None:
        return None
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return None


def _add(entries: list[Path], path: Path) -> None:
    if path not in entries:
        entries.append(path)
