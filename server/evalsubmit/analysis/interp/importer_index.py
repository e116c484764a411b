"""Which files of a project may reach a module, found from their texts, never parsed (for
:mod:`.module_stores`: only such a file may set the module's attributes, and
:mod:`.subclass_text` looks there for subclasses of its classes).

* a file may reach the module when it has an import statement
  (:func:`~evalsubmit.workspace.import_text.statements_in`: every ``import`` word, after
  ``try:`` or a backslash too) that can name the module or bind a package it is in
  (``import pkg`` then ``pkg.settings.X = ...``), resolved from the importing file's place
  (:mod:`.import_reach`): a relative import names what is at its place, a dotted name every
  module whose path ends with it, a single name a module of a folder that may be on the
  importer's ``sys.path`` (its own folder or one above it, their ``src``, a folder that may
  be installed, any folder once a file may change ``sys.path``). A job importing its own
  folder's ``runners`` does not reach another folder's. A module whose dotted name is not
  its path's (found through a symbolic link) is matched by its last name and its packages'
  names, as the imports were before they were resolved;
* a file may import a name from any module (``from anywhere import name``, matched by name:
  a module re-exporting a class).

Not seen: a file outside the project's listing (``Project.python_files``: bounded, virtual
environments and ignored folders left out), a file that reaches the module without an import
statement naming it or a package of it (``importlib.import_module``, ``sys.modules``), a file
whose imports find it through a folder put on ``sys.path`` from outside the project or
through another name (:mod:`.import_reach` lists them).

Cost: what a file on disk imports is kept by its stat signature (in the CLI, its
text and import statements are those its relevance scan read at the same stat, kept for the
run: :mod:`~evalsubmit.workspace.disk_texts`); an editor buffer being analysed is kept by the
pieces the engine parsed it in (:mod:`.buffer_stores`: an edit rescans the pieces it
changed), another buffer by its text. Which files on disk may reach a module is found when it
is first asked, and kept until the files are looked at again. The files on disk are looked at
(one ``stat`` each) at the first question, then again when the project is told files changed
(:meth:`~evalsubmit.workspace.project.Project.files_changed`, ``forget_files``, a buffer
closed); a project nobody tells (:attr:`~evalsubmit.workspace.project.Project.watched`
false: a language client that does not watch files) has them looked at again at most once per
:data:`FRESH_SECONDS`. A CLI run is told nothing: it sees the files as they were at its first
question.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from evalsubmit.analysis.interp.buffer_stores import BufferStores
from evalsubmit.analysis.interp.import_reach import (
    CONFIGURATION,
    Asked,
    Item,
    ItemKeys,
    file_keys,
    items_of,
    may_change_path,
    module_names,
)
from evalsubmit.analysis.interp.store_text import TextStores
from evalsubmit.workspace import observed
from evalsubmit.workspace.disk_texts import signature_of
from evalsubmit.workspace.import_text import Statement, statements_in
from evalsubmit.workspace.project import Project

FRESH_SECONDS = 1.0
"""How long what the files on disk import is taken as it was last looked at when the project
is not told of changes (:attr:`~evalsubmit.workspace.project.Project.watched`)."""
MAX_KEPT_STATEMENTS = 10_000
"""Import statements whose names are kept by their text (a long editing session types many)."""


class FileStores:
    """What one file imports; its text, digest and stores once it may reach a module asked
    about."""

    __slots__ = (
        "changes_path",
        "digest",
        "last_names",
        "package_names",
        "places",
        "signature",
        "stores",
    )

    def __init__(
        self,
        path: Path,
        signature: object,
        read: str,
        items: tuple[Item, ...],
        text: str | None,
        memo: dict[Item, ItemKeys],
    ) -> None:
        self.signature = signature
        self.places, self.last_names, self.package_names = file_keys(path.parent.parts, items, memo)
        self.changes_path = may_change_path(read)
        self.stores: TextStores | None = TextStores(text) if text is not None else None
        self.digest: str | None = None


_Disk = tuple[int, float, dict[str, list[tuple[Path, FileStores]]], bool]


class _Question:
    """A module asked about, the configuration files that told where it may be found from
    (their texts, None: none there), and the files on disk that may reach it."""

    __slots__ = ("asked", "by_name", "consulted", "on_disk")

    def __init__(
        self,
        asked: Asked,
        by_name: tuple[str, frozenset[str]] | None,
        consulted: tuple[tuple[Path, str | None], ...],
    ) -> None:
        self.asked = asked
        self.by_name = by_name
        """Its last name and packages' names when its dotted name is not its path's."""
        self.consulted = consulted
        self.on_disk: list[tuple[Path, FileStores]] = []

    def reached_by(self, path: Path, record: FileStores, names: Iterable[str]) -> bool:
        """Whether ``record`` (of ``path``) may reach the module: only what its imports name
        by ``names`` (those of the module's path) can."""
        if self.by_name is not None:
            stem, packages = self.by_name
            if stem in record.last_names or not packages.isdisjoint(record.package_names):
                return True
        places = record.places
        return any(
            self.asked.reached_by(path.parent.parts, places[name])
            for name in names
            if name in places
        )

    def reached_by_buffer(self, path: Path, buffer: BufferStores) -> bool:
        """Whether the buffer (of ``path``) may reach the module: kept by the buffer for
        this question while its imports are the same."""
        known = buffer.reached.get(self)
        if known is None:
            folder = path.parent.parts
            known = buffer.reached[self] = (
                self.by_name is not None and buffer.reaches(*self.by_name)
            ) or any(self.asked.reached_by(folder, at) for at in buffer.places(folder).values())
        return known


class ImporterIndex:
    """Per project: the files that may reach a module asked about, or import a name (the
    base of :class:`~.module_stores.ModuleStores`; shared by threads)."""

    def __init__(self, project: Project) -> None:
        self.project = project
        self._files: dict[Path, FileStores] = {}
        """Each file's (or buffer's) last record."""
        self._disk: _Disk | None = None
        """The project's generation and the time when the files on disk were last looked at,
        the files by each name their imports hold, and whether one may change ``sys.path``."""
        self._configurations: dict[Path, dict[str, str]] = {}
        """Folders' configuration files, as they were when the files on disk were looked at."""
        self._questions: dict[tuple[Path, str, bool], _Question] = {}
        """Modules asked about (path, dotted name, whether a file may change ``sys.path``):
        the files on disk that may reach them."""
        self._statements: dict[tuple[str, int], Statement] = {}
        self._item_keys: dict[Item, ItemKeys] = {}
        """What each import item adds to a file's record (:func:`~.import_reach.file_keys`)."""
        self._noted: dict[Path, tuple[str, Callable[[], list[str] | None]]] = {}
        """Buffers being analysed: their text and its pieces (:meth:`note_pieces`)."""
        self._buffers: dict[Path, BufferStores] = {}
        """The buffers' stores by piece, last version."""
        self._lock = threading.Lock()

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
        self, module_path: Path, module: str, noting: bool
    ) -> Iterator[tuple[Path, FileStores | BufferStores]]:
        """The project files that may reach a module (:mod:`.import_reach`): the buffers as
        their current texts, the others as they were at the project's current generation."""
        overlaid = self.project.overlaid()
        index, disk_changes_path = self._disk_index()
        buffers = {
            path: text
            for path in overlaid
            if path.suffix == ".py" and (text := self.project.read_unobserved(path)) is not None
        }
        changes_path = disk_changes_path or any(
            self._buffer_changes_path(path, text) for path, text in buffers.items()
        )
        question = self._question(module_path, module, changes_path, index)
        if noting:
            for path, text in question.consulted:
                observed.note("read", str(path), observed.read_answer(text))
        for path, record in question.on_disk:
            if path not in overlaid:
                yield path, record
        if self._noted:
            self._forget_closed(overlaid)
        for path, text in buffers.items():
            buffer = self._buffer(path, text)
            if buffer is not None:
                if question.reached_by_buffer(path, buffer):
                    yield path, buffer
                continue
            own = self._of(path, text)
            if own is not None and question.reached_by(path, own, own.places):
                yield path, own

    def _buffer_changes_path(self, path: Path, text: str) -> bool:
        """:func:`~.import_reach.may_change_path` of a buffer's text: counted per piece when
        the engine's pieces of it are known, else as its record says (kept by its text): a
        question is asked several times per analysis, and a scan of a long buffer each time
        was most of its cost."""
        buffer = self._buffer(path, text)
        if buffer is not None:
            return buffer.changes_path()
        own = self._of(path, text)
        return own is None or own.changes_path

    def _importing(self, name: str) -> Iterator[tuple[Path, FileStores | BufferStores]]:
        """The project files with an import naming ``name`` (``from anywhere import name``),
        matched by name, not resolved: the buffers as their current texts."""
        overlaid = self.project.overlaid()
        index, _ = self._disk_index()
        for path, record in index.get(name, ()):
            if path not in overlaid and name in record.last_names:
                yield path, record
        for path in overlaid:
            if path.suffix != ".py" or (text := self.project.read_unobserved(path)) is None:
                continue
            buffer = self._buffer(path, text)
            if buffer is not None:
                if buffer.reaches(name, frozenset()):
                    yield path, buffer
                continue
            own = self._of(path, text)
            if own is not None and name in own.last_names:
                yield path, own

    def _question(
        self,
        module_path: Path,
        module: str,
        changes_path: bool,
        index: dict[str, list[tuple[Path, FileStores]]],
    ) -> _Question:
        """Which files on disk may reach the module, kept until they are looked at again."""
        key = (module_path, module, changes_path)
        with self._lock:
            kept = self._questions.get(key)
        if kept is not None:
            return kept
        consulted: dict[Path, str | None] = {}

        def configuration(folder: Path) -> dict[str, str]:
            texts = self._configuration(folder)
            for name in CONFIGURATION:
                consulted[folder / name] = texts.get(name)
            return texts

        asked = Asked.of(module_path, self.project.root, configuration, changes_path)
        dotted = module.split(".")
        if dotted[-1] == "__init__":
            dotted.pop()
        by_name = None
        if tuple(dotted) != asked.parts[-len(dotted) :]:
            by_name = module_names(module_path, module, self.project.root)
        kept = _Question(asked, by_name, tuple(consulted.items()))
        names = set(asked.parts) | ({by_name[0], *by_name[1]} if by_name else set())
        seen: set[Path] = set()
        for name in names:
            for path, record in index.get(name, ()):
                if path not in seen:
                    seen.add(path)
                    if kept.reached_by(path, record, names):
                        kept.on_disk.append((path, record))
        with self._lock:
            self._questions[key] = kept
        return kept

    def _configuration(self, folder: Path) -> dict[str, str]:
        """The folder's configuration files (:data:`~.import_reach.CONFIGURATION`) by name."""
        with self._lock:
            known = self._configurations.get(folder)
        if known is None:
            known = {}
            for name in CONFIGURATION:
                text = self.project.read_unobserved(folder / name)
                if text is not None:
                    known[name] = text
            with self._lock:
                self._configurations[folder] = known
        return known

    def _disk_index(self) -> tuple[dict[str, list[tuple[Path, FileStores]]], bool]:
        """The files on disk (not buffers) by each name their imports hold
        (:func:`~.import_reach.index_keys`), and whether one may change ``sys.path``; looked
        at again when the project's generation changed."""
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
            index: dict[str, list[tuple[Path, FileStores]]] = {}
            changes_path = False
            for path in self.project.python_files():
                if path not in overlaid:
                    record = self._of(path, None)
                    if record is not None:
                        changes_path = changes_path or record.changes_path
                        names = record.places.keys() | record.last_names | record.package_names
                        for name in names:
                            index.setdefault(name, []).append((path, record))
            disk = (generation, now, index, changes_path)
            with self._lock:
                self._disk = disk
                self._configurations.clear()  # they may have changed too
                self._questions.clear()
        return disk[2], disk[3]

    def _of(self, path: Path, text: str | None) -> FileStores | None:
        """What ``path`` imports: an editor buffer's ``text``, else the file (by its stat)."""
        signature: object = text
        on_disk = None
        if text is None:
            on_disk = signature_of(path)
            if on_disk is None:
                return None
            signature = on_disk
        with self._lock:
            kept = self._files.get(path)
        if kept is not None and (kept.signature is signature or kept.signature == signature):
            return kept
        if len(self._statements) > MAX_KEPT_STATEMENTS:
            self._statements.clear()
            self._item_keys.clear()
        shared = self.project.shared_reads
        known = None
        if on_disk is not None and shared is not None:  # the CLI's relevance scan may read it
            known = shared.read_shared(path, on_disk)
        if known is not None:
            read = known.text
            items = items_of(known.import_statements(self._statements))
        else:
            found = text if text is not None else self.project.read_unobserved(path)
            if found is None:
                return None
            read = found
            items = items_of(statements_in(read, self._statements))
        # text kept only when needed
        kept = FileStores(path, signature, read, items, text, self._item_keys)
        with self._lock:
            self._files[path] = kept
        return kept

    def _stores(self, path: Path, record: FileStores) -> TextStores | None:
        if record.stores is None:
            text = self.project.read_unobserved(path)
            if text is None:
                return None
            record.stores = TextStores(text)
        return record.stores
