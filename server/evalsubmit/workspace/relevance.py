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
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

from evalsubmit.core.sourcefile import UnreadableSource, read_source
from evalsubmit.sdk.names import is_sdk_name
from evalsubmit.workspace.disk_texts import DiskText
from evalsubmit.workspace.environment import UNREAD_PACKAGES
from evalsubmit.workspace.import_text import Reach, Statement, imports_in
from evalsubmit.workspace.project import MAX_MODULE_BYTES, Project
from evalsubmit.workspace.walk import is_notebook

SDK_MARKERS = ("nemo_", "TasksetRef", "GymRuntimeConfig", "GymAgentTaskRunner")
"""Text that may name the SDK (module names, and its class names as the analysis's own
pre-filter spells them). Looked for with ``in``, a few times faster than one alternation
regular expression over the whole text (most files hold none of them: the whole text is read)."""
MAX_SCANNED_BYTES = MAX_MODULE_BYTES  # the texts are shared with the analysis
MAX_FOLDER_FILES = 2_000
"""A dependency on a folder with more Python files than this is not scanned: relevant."""

Node = tuple[str, str]
"""("file", path) of a module, ("folder", path) of a package's whole folder, ("installed",
top-level name) of an installed package."""


_SDK: tuple[Node, ...] = (("sdk", ""),)
"""What an import of the SDK itself reaches (the importer is relevant)."""


class RelevanceScan:
    """One project's scan; :meth:`relevant` answers for a set of files, reading each file (and
    each module it reaches) once."""

    def __init__(self, project: Project, *, max_chars: int = MAX_SCANNED_BYTES) -> None:
        self.project = project
        self.max_chars = max_chars
        """A file longer than this is relevant (the analysis says it is too large)."""
        self._deps: dict[Node, tuple[Node, ...] | None] = {}
        """A node's dependencies; None when it is relevant by itself."""
        self._found: dict[tuple[str, Reach, tuple[str, ...]], list[Node]] = {}
        self._found_under: dict[tuple[str, Reach, tuple[str, ...]], list[Node]] = {}
        """(search root, reach, module's parts) -> what :meth:`_find_under` found there."""
        self._roots: dict[tuple[str, bool], tuple[str, ...]] = {}
        self._conftest_files: dict[str, tuple[Node, ...]] = {}
        self._real: dict[str, str] = {}
        self._import_deps: dict[tuple[str, Reach, tuple[str, ...], bool], tuple[Node, ...]] = {}
        """(module, reach, search roots, from an installed file) -> what the import reaches."""
        self._statements: dict[tuple[str, int], Statement] = {}
        self._listings: dict[str, frozenset[str] | None] = {}
        """A folder -> its entries' names, case-folded (None: it cannot be listed)."""
        """An import statement's text -> what it names (:func:`_imports`)."""

    def relevant(self, files: Iterable[Path]) -> set[Path]:
        """Which of ``files`` may hold a finding of their own (paths as given)."""
        return set(self.stream(files))

    def stream(self, files: Iterable[Path]) -> Iterator[Path]:
        """The files of :meth:`relevant`, each once, as soon as it is known: a file relevant by
        itself (it names the SDK, or cannot be read or scanned) when its own text has been read
        (the files in the order given), one relevant through its imports once every file has
        been read (its importers are only known then). ``evalsubmit check`` starts analysing
        the first while the rest are read."""
        given = {path: ("file", self._realpath(str(path))) for path in files}
        yielded: set[Path] = set()
        for path, node in given.items():
            if node not in self._deps:
                self._deps[node] = self._scan(node)
            if self._deps[node] is None:
                yielded.add(path)
                yield path
        todo = [dep for deps in self._deps.values() if deps for dep in deps]
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
        yield from (p for p, node in given.items() if node in marked and p not in yielded)

    # -- one node ---------------------------------------------------------------------------

    def _scan(self, node: Node) -> tuple[Node, ...] | None:
        kind, key = node
        if kind == "folder":
            files = _python_files_under(key)
            return None if files is None else tuple(("file", self._realpath(f)) for f in files)
        if kind == "installed":
            return self._installed(key)
        shared = self._shared_read(key)
        text = shared.text if shared is not None else self._read(Path(key))
        if text is None or len(text) > self.max_chars or _names_sdk(text):
            return None
        if "import" not in text:
            return ()
        scanned = shared.import_statements(self._statements) if shared is not None else None
        installed = self._is_installed(key)
        deps: list[Node] = []
        roots = () if installed else self._search_roots(key)
        package = None if installed else lambda: self._package_of(Path(key))
        known = self._import_deps
        found_imports = imports_in(text, package, self._statements, scanned)
        for module, reach in dict.fromkeys(found_imports):
            import_key = (module, reach, roots, installed)
            found = known.get(import_key)
            if found is None:
                found = known[import_key] = self._import_dependencies(*import_key)
            if found is _SDK:
                return None
            deps.extend(found)
        if not installed:
            deps.extend(self._conftests(key))
        return tuple(dict.fromkeys(deps))

    def _import_dependencies(
        self, module: str, reach: Reach, roots: tuple[str, ...], installed: bool
    ) -> tuple[Node, ...]:
        """What one import reaches (:data:`_SDK`: the SDK itself), the same from every file
        with the same search roots."""
        if is_sdk_name(module):
            return _SDK
        deps = [] if installed else self._in_project(module, reach, roots)
        return (*deps, *self._outside_project(module.partition(".")[0]))

    def _shared_read(self, path: str) -> DiskText | None:
        """The text of a project file the analysis may read too (:mod:`.disk_texts`, when the
        project keeps them for one run), with its import statements once scanned."""
        shared = self.project.shared_reads
        root = self.project.root
        if shared is None or root is None or not _under(path, str(root)):
            return None
        return shared.read_shared(Path(path))

    def _read(self, path: Path) -> str | None:
        try:
            if is_notebook(path):  # its code cells as the module the analysis reads
                from evalsubmit.core.cells import CellMap
                from evalsubmit.workspace.notebook import read_notebook

                return CellMap.build(read_notebook(path, max_bytes=MAX_SCANNED_BYTES).cells).text
            return read_source(path, max_bytes=MAX_SCANNED_BYTES).text
        except UnreadableSource:
            return None

    def _realpath(self, path: str) -> str:
        """``os.path.realpath``, with the folders' resolved once (a link is resolved whole)."""
        real = self._real.get(path)
        if real is None:
            folder, name = os.path.split(os.path.abspath(path))
            real_folder = self._real.get(folder)
            if real_folder is None:
                real_folder = self._real[folder] = os.path.realpath(folder)
            joined = os.path.join(real_folder, name)
            real = self._real[path] = os.path.realpath(joined) if os.path.islink(joined) else joined
        return real

    def _search_roots(self, path: str) -> tuple[str, ...]:
        """The folders imports in ``path`` are searched in (the same for a folder's files,
        pytest modules apart)."""
        folder, name = os.path.split(path)
        pytest_module = _is_pytest_module(name)
        key = (folder, pytest_module)
        roots = self._roots.get(key)
        if roots is None:
            found = self.project.search_roots(Path(path))
            roots = self._roots[key] = tuple(str(root) for root in found)
        return roots

    def _in_project(self, module: str, reach: Reach, roots: tuple[str, ...]) -> list[Node]:
        """The project's files ``module`` may come from, under every folder imports are
        searched in (more than the interpreter, which stops at the first)."""
        key = (module, reach, roots)
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = self._find(module.split("."), reach, roots)
        return found

    def _find(self, parts: list[str], reach: Reach, roots: tuple[str, ...]) -> list[Node]:
        found: list[Node] = []
        for base in roots:
            # The project's top (and its src/) is a root of every folder: looked up once.
            key = (base, reach, tuple(parts))
            under = self._found_under.get(key)
            if under is None:
                under = self._found_under[key] = self._find_under(base, parts, reach)
            found.extend(under)
        return found

    def _find_under(self, base: str, parts: list[str], reach: Reach) -> list[Node]:
        found: list[Node] = []
        folder = base
        for index, part in enumerate(parts):
            last = index == len(parts) - 1
            if self._surely_absent(folder, part):
                break
            as_file = os.path.join(folder, part + ".py")
            as_folder = os.path.join(folder, part)
            if os.path.isfile(as_file):
                found.append(("file", self._realpath(as_file)))
                break
            if not os.path.isdir(as_folder):
                break
            if reach == "head" or (last and reach == "module"):
                # a package or a namespace folder: every submodule is in reach
                found.append(("folder", self._realpath(as_folder)))
                break
            init = os.path.join(as_folder, "__init__.py")
            if os.path.isfile(init):
                found.append(("file", self._realpath(init)))
            folder = as_folder
        return found

    def _surely_absent(self, folder: str, part: str) -> bool:
        """Whether ``folder`` holds neither ``part.py`` nor ``part``, told by its listing (read
        once) instead of two ``stat`` calls: most names looked up are the standard library's,
        under every folder's own search root. Names are compared case-folded, so a name a
        case-insensitive file system would match counts as present (then ``stat`` decides);
        a name that is not ASCII, or a folder that cannot be listed, is never surely absent."""
        if not part.isascii():
            return False
        if folder not in self._listings:
            try:
                listed = frozenset(name.casefold() for name in os.listdir(folder))
            except OSError:
                listed = None
            self._listings[folder] = listed
        names = self._listings[folder]
        if names is None:
            return False
        part = part.casefold()
        return part not in names and part + ".py" not in names

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
        files: list[str] = []
        if found.portions:
            for portion in found.portions:
                under = _python_files_under(str(portion))
                if under is None:
                    return None
                files.extend(under)
        elif found.source is not None:
            files.append(str(found.source))
        if len(files) > MAX_FOLDER_FILES:
            return None
        return tuple(("file", self._realpath(f)) for f in files)

    def _is_installed(self, path: str) -> bool:
        root = self.project.root
        if root is not None and _under(path, str(root)):
            return False
        environment = self.project.environment
        if environment is None:
            return False
        return any(_under(path, str(entry)) for entry in environment.search_path)

    def _package_of(self, path: Path) -> list[str]:
        """The dotted parts relative imports in ``path`` start from (as the analysis does)."""
        parts = self.project.module_name(path).split(".")
        if path.name == "__init__.py":
            parts.append("__init__")
        return parts

    def _conftests(self, path: str) -> tuple[Node, ...]:
        """The ``conftest.py`` files whose fixtures a test in ``path`` may use."""
        root = self.project.root
        if root is None:
            return ()
        folder = os.path.dirname(path)
        cached = self._conftest_files.get(folder)
        if cached is None:
            found = []
            current, top = folder, str(root)
            while _under(current, top):
                candidate = os.path.join(current, "conftest.py")
                if os.path.isfile(candidate):
                    found.append(("file", self._realpath(candidate)))
                parent = os.path.dirname(current)
                if current == top or parent == current:
                    break
                current = parent
            cached = self._conftest_files[folder] = tuple(found)
        return tuple(node for node in cached if node[1] != path)


def _names_sdk(text: str) -> bool:
    return any(marker in text for marker in SDK_MARKERS)


def _under(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _is_pytest_module(name: str) -> bool:
    return name == "conftest.py" or name.startswith("test_") or name.endswith("_test.py")


def _python_files_under(folder: str) -> list[str] | None:
    """Every ``.py`` file under ``folder``; None when there are too many (or it cannot be
    read whole)."""
    files: list[str] = []
    try:
        for dirpath, dirnames, filenames in os.walk(folder, onerror=_raise):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            files.extend(os.path.join(dirpath, f) for f in filenames if f.endswith(".py"))
            if len(files) > MAX_FOLDER_FILES:
                return None
    except OSError:
        return None
    return files


def _raise(error: OSError) -> None:
    raise error
