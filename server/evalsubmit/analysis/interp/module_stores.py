"""Module attributes that another module of the project sets: ``main.py`` runs
``settings.CONCURRENCY = 8`` before a function of ``runners.py`` reads
``settings.CONCURRENCY``. The value ``settings.py`` binds is then not what that function sees,
so a module's attribute that any other file of the project may store is not trusted (it is
unknown, hence silent), wherever it is read.

Found from the files' texts, never parsed, and only when a module attribute is read (most
analyses read none):

* which files may reach the module: those with an import statement
  (:func:`~evalsubmit.workspace.import_text.imports_in`: every ``import`` word, after ``try:``
  or a backslash too) that names a module or name whose last name is the module's, or that
  binds one of its packages (``import pkg`` then ``pkg.settings.X = ...``), the packages named
  by its dotted name or its folders under the project root. Matched by name, not resolved: a
  file naming another module of the same name counts too;
* whether such a file may store the attribute or change what it holds in place
  (``settings.LIMITS["x"] = 1``, ``settings.LIMITS.update(...)``): :mod:`.store_text` (any
  receiver, so most stores found are not of the module: at worst a value not trusted that could
  have been);
* whether such a file, when an import of it may bind the attribute's name
  (``from evals.settings import LIMITS``, an alias, ``import *``: matched by name, from any
  module), changes in place what that bare name holds (``LIMITS["x"] = 1``): the very object
  the module holds.

Not seen: a file outside the project's listing (``Project.python_files``: bounded, virtual
environments and ignored folders left out), a file that reaches the module without an import
statement naming it or a package of it (``importlib.import_module``, ``sys.modules``), and the
stores and changes :mod:`.store_text` lists as not seen (among them what is changed through
another name: ``limits = settings.LIMITS`` then ``limits["x"] = 1``, ``configure(LIMITS)``);
a value stored or changed so is still trusted.

Cost: what a file on disk imports is kept by its size and modification time; an editor buffer
being analysed is kept by the pieces the engine parsed it in (:mod:`.buffer_stores`: an edit
rescans the pieces it changed), another buffer by its text. Whether a file may store a name
is looked for, in the files that may reach the module only, when the name is first asked. The
files on disk are looked at (one ``stat`` each) at the first question, then again when the
project is told files changed (:meth:`~evalsubmit.workspace.project.Project.files_changed`,
``forget_files``, a buffer closed); a project nobody tells
(:attr:`~evalsubmit.workspace.project.Project.watched` false: a language client that does not
watch files) has them looked at again at most once per :data:`FRESH_SECONDS`. A CLI run is told
nothing: it sees the files as they were at its first question. The files that may store a
name read become dependencies of the analysis; the texts of those that may reach the module
and the project's listing of files are observations of it (the CLI's result cache), so its
cached results go when they change or a file is created or deleted. In one process (the
language server), each question and its answer are noted by the resolver and asked again
(:meth:`ModuleStores.answers_the_same`) before a result resting on them is reused: a store
gained by a file that stored nothing is in no text the result read.

The same files, with their texts (:meth:`ModuleStores.reaching`), are where
:mod:`.subclass_text` looks for subclasses of a module's classes.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from evalsubmit.analysis.interp.buffer_stores import BufferStores, no_package
from evalsubmit.analysis.interp.grouping import DependencyLog, StoreAnswer, StoreQuestion
from evalsubmit.analysis.interp.store_text import TextStores, import_words
from evalsubmit.workspace import observed
from evalsubmit.workspace.import_text import Statement, imports_in
from evalsubmit.workspace.project import Project

FRESH_SECONDS = 1.0
"""How long what the files on disk import is taken as it was last looked at when the project
is not told of changes (:attr:`~evalsubmit.workspace.project.Project.watched`)."""
MAX_KEPT_STATEMENTS = 10_000
"""Import statements whose names are kept by their text (a long editing session types many)."""


class _FileStores:
    """What one file imports; its text, digest and stores once it may reach a module asked
    about."""

    __slots__ = ("digest", "last_names", "package_names", "signature", "stores")

    def __init__(
        self, signature: object, names: tuple[frozenset[str], frozenset[str]], text: str | None
    ) -> None:
        self.signature = signature
        self.last_names, self.package_names = names
        self.stores: TextStores | None = TextStores(text) if text is not None else None
        self.digest: str | None = None


class ModuleStores:
    """Per project (held by its ModuleResolver, shared by threads)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._files: dict[Path, _FileStores] = {}
        """Each file's (or buffer's) last record."""
        self._disk: tuple[int, float, dict[str, list[tuple[Path, _FileStores]]]] | None = None
        """The project's generation and the time when the files on disk were last looked at,
        and the files by each name their imports hold."""
        self._statements: dict[tuple[str, int], Statement] = {}
        self._noted: dict[Path, tuple[str, Callable[[], list[str] | None]]] = {}
        """Buffers being analysed: their text and its pieces (:meth:`note_pieces`)."""
        self._buffers: dict[Path, BufferStores] = {}
        """The buffers' stores by piece, last version."""
        self._listed: tuple[int, str] | None = None
        """The project's generation and its listing's answer (an observation of the CLI)."""
        self._module_names: dict[tuple[Path, str], tuple[str, frozenset[str]]] = {}
        """Each module's last name and packages' names (the project's root does not change)."""
        self._lock = threading.Lock()

    def set_elsewhere(
        self, module_path: Path, module: str, name: str, dependencies: set[Path]
    ) -> frozenset[Path]:
        """The project files other than the module's that may store its attribute ``name``
        or change what it holds in place (empty: none); they become dependencies of the
        analysis."""
        noting = observed.noting()
        if noting:  # a file created since may store it
            observed.note("files", observed.files_key(self.project), self._listing())
        found: list[Path] = []
        for path, record, stores in self._reaching(module_path, module):
            if noting:  # a file that may reach the module: a store it gains counts
                observed.note("read", str(path), self._digest(record, stores))
            if _may_store(record, stores, name):
                found.append(path)
                dependencies.add(path)
                if isinstance(dependencies, DependencyLog):
                    dependencies.note(path, self._digest(record, stores))
        return frozenset(found)

    def answers_the_same(self, questions: Iterable[tuple[StoreQuestion, StoreAnswer]]) -> bool:
        """Whether each question :meth:`set_elsewhere` was asked gets the same answer now.
        Asked again before cached results are reused: a file that stored nothing was no
        dependency, yet a store it gains makes the value unknown (and one removed, known).
        Cheap when nothing changed: what each file imports and may store is kept by its
        stat or text (a buffer's by its pieces), so no text is scanned again."""
        for (module_path, module, name), answer in questions:
            if answer is None:
                return False
            now = [
                path
                for path, record, stores in self._reaching(module_path, module)
                if _may_store(record, stores, name)
            ]
            if len(now) != len(answer) or not answer.issuperset(now):
                return False
        return True

    def _reaching(
        self, module_path: Path, module: str
    ) -> Iterator[tuple[Path, _FileStores | BufferStores, TextStores | BufferStores]]:
        """The project files other than the module's that may reach it, with their stores."""
        stem, packages = self._names(module_path, module)
        for path, record in self._candidates(stem, packages):
            if path == module_path:
                continue
            stores = record if isinstance(record, BufferStores) else self._stores(path, record)
            if stores is not None:
                yield path, record, stores

    def reaching(
        self, module_path: Path, module: str, name: str
    ) -> Iterator[tuple[Path, str, str]]:
        """The project files other than the module's that may reach it (as
        :meth:`set_elsewhere` finds them) or may import a name ``name`` from any module (a
        module re-exporting it), each with its text and the text's digest, the texts noted as
        observations of the analysis (and the project's listing: a file created may reach it).
        """
        stem, packages = self._names(module_path, module)
        noting = observed.noting()
        if noting:
            observed.note("files", observed.files_key(self.project), self._listing())
        seen = {module_path}
        for found in (self._candidates(stem, packages), self._candidates(name, frozenset())):
            for path, record in found:
                if path in seen:
                    continue
                seen.add(path)
                stores = record if isinstance(record, BufferStores) else self._stores(path, record)
                if stores is None:
                    continue
                digest = self._digest(record, stores)
                if noting:
                    observed.note("read", str(path), digest)
                yield path, stores.text, digest

    def _names(self, module_path: Path, module: str) -> tuple[str, frozenset[str]]:
        """The module's last name, and the names of the packages it is in."""
        known = self._module_names.get((module_path, module))
        if known is None:
            known = self._module_names[(module_path, module)] = self._find_names(
                module_path, module
            )
        return known

    def _find_names(self, module_path: Path, module: str) -> tuple[str, frozenset[str]]:
        parts = module.split(".")
        if parts[-1] == "__init__":
            parts.pop()
        packages = set(parts[:-1])
        root = self.project.root
        if root is not None and module_path.is_relative_to(root):
            folders = module_path.relative_to(root).parts[:-1]
            packages.update(folders[:-1] if module_path.name == "__init__.py" else folders)
        return parts[-1], frozenset(packages)

    def note_pieces(self, path: Path, text: str, pieces: Callable[[], list[str] | None]) -> None:
        """The text of an editor buffer being analysed, and how to get it cut in the engine's
        top-level pieces (``pieces``: None once the engine parsed another text)."""
        with self._lock:
            self._noted[path] = (text, pieces)
            noted = len(self._noted)
        if noted > 1:  # a closed buffer's pieces hold its document's parse: let it go
            self._forget_closed(self.project.overlaid() | {path})

    def _buffer(self, path: Path, text: str) -> BufferStores | None:
        """The buffer's stores by piece, when the engine's pieces of this text are known."""
        with self._lock:
            noted = self._noted.get(path)
            current = self._buffers.get(path)
        if current is not None and current.text is text:
            return current
        if noted is None or not (noted[0] is text or noted[0] == text):
            return None
        pieces = noted[1]()
        if pieces is None or "".join(pieces) != text:
            return None  # parsed again since, or not this text (a NUL replaced, a BOM dropped)
        buffer = BufferStores.of(text, pieces, self._statements, current)
        with self._lock:
            self._buffers[path] = buffer
        return buffer

    def _forget_closed(self, overlaid: frozenset[Path]) -> None:
        with self._lock:
            for gone in [path for path in self._noted if path not in overlaid]:
                del self._noted[gone]
                self._buffers.pop(gone, None)

    def _candidates(
        self, stem: str, packages: frozenset[str]
    ) -> Iterator[tuple[Path, _FileStores | BufferStores]]:
        """The project files that may reach a module (its last name, its packages' names):
        the buffers as their current texts, the others as they were at the project's current
        generation."""
        overlaid = self.project.overlaid()
        index = self._disk_index()
        seen: set[Path] = set()
        for name in (stem, *packages):
            for path, record in index.get(name, ()):
                if path not in seen and path not in overlaid:
                    seen.add(path)
                    if stem in record.last_names or not packages.isdisjoint(record.package_names):
                        yield path, record
        if self._noted:
            self._forget_closed(overlaid)
        for path in overlaid:
            if path.suffix == ".py":
                text = self.project.read_unobserved(path)
                if text is None:
                    continue
                buffer = self._buffer(path, text)
                if buffer is not None:
                    if buffer.reaches(stem, packages):
                        yield path, buffer
                    continue
                own = self._of(path, text)
                if own is not None and (
                    stem in own.last_names or not packages.isdisjoint(own.package_names)
                ):
                    yield path, own

    def _disk_index(self) -> dict[str, list[tuple[Path, _FileStores]]]:
        """The files on disk (not buffers) by each name their imports hold, looked at again
        when the project's generation changed."""
        generation = self.project.generation
        now = time.monotonic()
        with self._lock:
            disk = self._disk
        if (
            disk is None
            or disk[0] != generation
            or (not self.project.watched and now - disk[1] >= FRESH_SECONDS)
        ):
            overlaid = self.project.overlaid()
            index: dict[str, list[tuple[Path, _FileStores]]] = {}
            for path in self.project.python_files():
                if path not in overlaid:
                    record = self._of(path, None)
                    if record is not None:
                        for name in record.last_names | record.package_names:
                            index.setdefault(name, []).append((path, record))
            disk = (generation, now, index)
            with self._lock:
                self._disk = disk
        return disk[2]

    def _of(self, path: Path, text: str | None) -> _FileStores | None:
        """What ``path`` imports: an editor buffer's ``text``, else the file (by its stat)."""
        signature: object = text
        if text is None:
            try:
                status = path.stat()
            except OSError:
                return None
            signature = (status.st_mtime_ns, status.st_size)
        with self._lock:
            kept = self._files.get(path)
        if kept is not None and (kept.signature is signature or kept.signature == signature):
            return kept
        read = text if text is not None else self.project.read_unobserved(path)
        if read is None:
            return None
        if len(self._statements) > MAX_KEPT_STATEMENTS:
            self._statements.clear()
        names = import_words(imports_in(read, no_package, self._statements))
        kept = _FileStores(signature, names, text)  # a file's text is kept only when needed
        with self._lock:
            self._files[path] = kept
        return kept

    def _stores(self, path: Path, record: _FileStores) -> TextStores | None:
        if record.stores is None:
            text = self.project.read_unobserved(path)
            if text is None:
                return None
            record.stores = TextStores(text)
        return record.stores

    def _listing(self) -> str:
        generation = self.project.generation
        listed = self._listed
        if listed is None or listed[0] != generation:
            listed = self._listed = (generation, observed.files_answer(self.project))
        return listed[1]

    @staticmethod
    def _digest(record: _FileStores | BufferStores, stores: TextStores | BufferStores) -> str:
        if record.digest is None:
            record.digest = observed.text_digest(stores.text)
        return record.digest


def _may_store(
    record: _FileStores | BufferStores, stores: TextStores | BufferStores, name: str
) -> bool:
    """Whether the file may store the attribute ``name``, or change in place what it holds
    through a name it imports."""
    return stores.may_store(name) or (
        _imports_name(record, stores, name) and stores.may_change_imported(name)
    )


def _imports_name(
    record: _FileStores | BufferStores, stores: TextStores | BufferStores, name: str
) -> bool:
    """Whether the file may bind ``name`` by an import (``from settings import NAME``, ``*``):
    what it does in place to that object it does to the module's own."""
    if isinstance(record, BufferStores):
        return record.imports_name(name)
    return name in record.last_names or (isinstance(stores, TextStores) and stores.star_imports())
