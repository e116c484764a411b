"""Which files of a ``check`` can hold a finding, decided from their text alone (no parse).

A finding needs an SDK value: a module can only get one by naming the SDK itself, or by
importing (directly or through other modules) a module that does. :class:`RelevanceScan`
follows every import a file's text *may* contain, the way the analysis resolves them (the
project's own modules first, then the installed packages of its Python environment, never the
standard library), and marks a file relevant when anything it reaches names the SDK. A file
that is not relevant gives no finding of its own, so ``evalsubmit check`` does not parse or
analyse it; what other files report into it (a bad value written there, submitted elsewhere)
still reaches it through their analysis.

The scan errs on the side of analysing: the import statements are found by a regular
expression that accepts more than Python does (text in strings and comments included), an
``import a.b`` makes the whole of ``a`` a dependency (its names reach every submodule), a
folder or an installed package too large to scan, or a file that cannot be read, counts as
relevant. Only the text of files is read; nothing is imported or run.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import Literal

from evalsubmit.core.sourcefile import UnreadableSource, read_source
from evalsubmit.sdk.names import is_sdk_name
from evalsubmit.workspace.project import Project

SDK_MARKER = re.compile(r"nemo_|TasksetRef|GymRuntimeConfig|GymAgentTaskRunner")
"""Text that may name the SDK (module names, and its class names as the analysis's own
pre-filter spells them)."""
MAX_SCANNED_BYTES = 2_000_000
MAX_FOLDER_FILES = 2_000
"""A dependency on a folder with more Python files than this is not scanned: relevant."""
UNREAD_PACKAGES = frozenset({"pytest", "_pytest", "typing_extensions", "pydantic", "pydantic_core"})
"""Installed packages the analysis never reads (``interp.modules.UNREAD_PACKAGES``)."""

_CONT = r"(?:[ \t\f]|\\\r?\n)*"
_FROM = re.compile(
    rf"\bfrom\b{_CONT}(\.*){_CONT}([\w.]*){_CONT}\b(import)\b{_CONT}"
    r"(\([^)]*\)?|(?:[^\n\\;]|\\\r?\n)*)"
)
_IMPORT = re.compile(rf"\bimport\b{_CONT}((?:[^\n\\;()]|\\\r?\n)*)")
_DOTTED = re.compile(r"[^\W\d]\w*(?:\s*\.\s*[^\W\d]\w*)*")

Reach = Literal["head", "module", "init"]
"""What an import can reach: all of its first name's package (``import a.b`` binds ``a``), the
module named and, for a package, all of it (``import a.b as m``, ``from a import b``), or the
module's own file only (the ``a`` of ``from a import b``)."""
Node = tuple[str, str]
"""("file", path) of a module, ("folder", path) of a package's whole folder, ("installed",
top-level name) of an installed package."""


class RelevanceScan:
    """One project's scan; :meth:`relevant` answers for a set of files, reading each file (and
    each module it reaches) once."""

    def __init__(self, project: Project, *, max_chars: int = MAX_SCANNED_BYTES) -> None:
        self.project = project
        self.max_chars = max_chars
        """A file longer than this is relevant (the analysis says it is too large)."""
        self._deps: dict[Node, tuple[Node, ...] | None] = {}
        """A node's dependencies; None when it is relevant by itself."""
        self._found: dict[tuple[str, Reach, tuple[Path, ...]], list[Node]] = {}

    def relevant(self, files: Iterable[Path]) -> set[Path]:
        """Which of ``files`` may hold a finding of their own (paths as given)."""
        given = {path: ("file", str(_resolved(path))) for path in files}
        todo = list(given.values())
        while todo:
            node = todo.pop()
            if node in self._deps:
                continue
            deps = self._deps[node] = self._scan(node)
            if deps:
                todo.extend(d for d in deps if d not in self._deps)
        importers: dict[Node, list[Node]] = {}
        hot: list[Node] = []
        for node, deps in self._deps.items():
            if deps is None:
                hot.append(node)
                continue
            for dep in deps:
                importers.setdefault(dep, []).append(node)
        marked = set(hot)
        while hot:
            for importer in importers.get(hot.pop(), ()):
                if importer not in marked:
                    marked.add(importer)
                    hot.append(importer)
        return {path for path, node in given.items() if node in marked}

    # -- one node ---------------------------------------------------------------------------

    def _scan(self, node: Node) -> tuple[Node, ...] | None:
        kind, key = node
        if kind == "folder":
            files = _python_files_under(Path(key))
            return None if files is None else tuple(("file", str(f)) for f in files)
        if kind == "installed":
            return self._installed(key)
        path = Path(key)
        text = self._read(path)
        if text is None or len(text) > self.max_chars or SDK_MARKER.search(text):
            return None
        if "import" not in text:
            return ()
        installed = self._is_installed(path)
        deps: list[Node] = []
        for module, reach in _imports(text, self._package_of(path) if not installed else None):
            head = module.partition(".")[0]
            if is_sdk_name(module):
                return None
            if installed:
                deps.extend(self._outside_project(head))
                continue
            deps.extend(self._in_project(module, reach, path))
            deps.extend(self._outside_project(head))
        if not installed:
            deps.extend(("file", str(c)) for c in self._conftests(path))
        return tuple(dict.fromkeys(deps))

    def _read(self, path: Path) -> str | None:
        try:
            return read_source(path, max_bytes=MAX_SCANNED_BYTES).text
        except UnreadableSource:
            return None

    def _in_project(self, module: str, reach: Reach, importer: Path) -> list[Node]:
        """The project's files ``module`` may come from, under every folder imports are
        searched in (more than the interpreter, which stops at the first)."""
        roots = tuple(self.project.search_roots(importer))
        key = (module, reach, roots)
        cached = self._found.get(key)
        if cached is None:
            cached = self._found[key] = self._find(module.split("."), reach, roots)
        return cached

    def _find(self, parts: list[str], reach: Reach, roots: tuple[Path, ...]) -> list[Node]:
        found: list[Node] = []
        for base in roots:
            folder = base
            for index, part in enumerate(parts):
                last = index == len(parts) - 1
                as_file = folder / f"{part}.py"
                as_folder = folder / part
                if as_file.is_file():
                    found.append(("file", str(_resolved(as_file))))
                    break
                if not as_folder.is_dir():
                    break
                init = as_folder / "__init__.py"
                if reach == "head" or (last and reach == "module"):
                    # a package or a namespace folder: every submodule is in reach
                    found.append(("folder", str(_resolved(as_folder))))
                    break
                if init.is_file():
                    found.append(("file", str(_resolved(init))))
                folder = as_folder
        return found

    def _outside_project(self, head: str) -> list[Node]:
        if head in sys.stdlib_module_names or head in UNREAD_PACKAGES or not head.isidentifier():
            return []
        return [("installed", head)]

    def _installed(self, head: str) -> tuple[Node, ...] | None:
        environment = self.project.environment
        if environment is None:
            return ()
        found = environment.find_module(head)
        if found is None:
            return ()
        files: list[Path] = []
        if found.portions:
            for portion in found.portions:
                under = _python_files_under(portion)
                if under is None:
                    return None
                files.extend(under)
        elif found.source is not None:
            files.append(found.source)
        if len(files) > MAX_FOLDER_FILES:
            return None
        return tuple(("file", str(_resolved(f))) for f in files)

    def _is_installed(self, path: Path) -> bool:
        root = self.project.root
        if root is not None and path.is_relative_to(root):
            return False
        environment = self.project.environment
        if environment is None:
            return False
        return any(path.is_relative_to(entry) for entry in environment.search_path)

    def _package_of(self, path: Path) -> list[str]:
        """The dotted parts relative imports in ``path`` start from (as the analysis does)."""
        parts = self.project.module_name(path).split(".")
        if path.name == "__init__.py":
            parts.append("__init__")
        return parts

    def _conftests(self, path: Path) -> list[Path]:
        root = self.project.root
        if root is None:
            return []
        found = []
        folder = path.parent
        while folder.is_relative_to(root):
            candidate = folder / "conftest.py"
            if candidate != path and candidate.is_file():
                found.append(candidate)
            if folder == root or folder.parent == folder:
                break
            folder = folder.parent
        return found


def _imports(text: str, package: list[str] | None) -> Iterable[tuple[str, Reach]]:
    """(absolute module, what it reaches) for every import the text may hold. ``package``: the
    importer's dotted parts (None: relative imports stay inside an installed package, which is
    scanned whole)."""
    from_keywords = set()
    for match in _FROM.finditer(text):
        from_keywords.add(match.start(3))
        dots, module, names = match.group(1), _clean(match.group(2)), match.group(4)
        level = len(dots)
        if level:
            if package is None:
                continue
            base = package[: max(len(package) - level, 0)]
            module = ".".join([*base, module] if module else base)
        if module:
            yield module, "module" if "*" in names else "init"
        for name in _DOTTED.findall(names):
            name = _clean(name)
            if name != "as":
                yield (f"{module}.{name}" if module else name), "module"
    for match in _IMPORT.finditer(text):
        if match.start() in from_keywords:
            continue  # the names of a `from ... import` (above)
        for item in match.group(1).split(","):
            words = _DOTTED.findall(item)
            if words:
                # `import a.b` binds `a`: all of it is in reach; `import a.b as m`: a.b
                yield _clean(words[0]), "head" if len(words) == 1 else "module"


def _clean(dotted: str) -> str:
    return re.sub(r"\s+", "", dotted)


def _resolved(path: Path) -> Path:
    try:
        return path.resolve()
    except (OSError, RuntimeError):
        return path.absolute()


def _python_files_under(folder: Path) -> list[Path] | None:
    """Every ``.py`` file under ``folder``; None when there are too many (or it cannot be
    read whole)."""
    files: list[Path] = []
    try:
        for dirpath, dirnames, filenames in os.walk(folder, onerror=_raise):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            files.extend(Path(dirpath, f) for f in filenames if f.endswith(".py"))
            if len(files) > MAX_FOLDER_FILES:
                return None
    except OSError:
        return None
    return files


def _raise(error: OSError) -> None:
    raise error
