"""Module attributes that another module of the project sets: ``main.py`` runs
``settings.CONCURRENCY = 8`` before a function of ``runners.py`` reads
``settings.CONCURRENCY``. The value ``settings.py`` binds is then not what that function sees,
so a module's attribute that any other file of the project may store is not trusted (it is
unknown, hence silent), wherever it is read.

Found from the files' texts, never parsed, and only when a module attribute is read (most
analyses read none):

* which files may reach the module (:mod:`.importer_index`: an import statement of theirs
  may name it or bind a package it is in, resolved from the importing file's place);
* whether such a file may store the attribute or change what it holds in place
  (``settings.LIMITS["x"] = 1``, ``settings.LIMITS.update(...)``): :mod:`.store_text` (any
  receiver, so most stores found are not of the module: at worst a value not trusted that could
  have been);
* whether such a file, when an import of it may bind the attribute's name
  (``from evals.settings import LIMITS``, an alias, ``import *``: matched by name, from any
  module), changes in place what that bare name holds (``LIMITS["x"] = 1``): the very object
  the module holds.

Not seen: a file :mod:`.importer_index` does not see reaching the module, and the
stores and changes :mod:`.store_text` lists as not seen (among them what is changed through
another name: ``limits = settings.LIMITS`` then ``limits["x"] = 1``, ``configure(LIMITS)``);
a value stored or changed so is still trusted.

Cost: which files may reach a module, and what each imports, are kept as
:mod:`.importer_index` says. Whether a file may store a name is looked for, in the files that
may reach the module only, when the name is first asked. The files that may store a
name read become dependencies of the analysis; the texts of those that may reach the module,
the configuration files that told where a single name may find it and the project's listing
of files are observations of it (the CLI's result cache), so its cached results go when they
change or a file is created or deleted. In one process (the language server), each question
and its answer are noted by the resolver and asked again
(:meth:`ModuleStores.answers_the_same`) before a result resting on them is reused: a store
gained by a file that stored nothing is in no text the result read.

The same files, with their texts (:meth:`ModuleStores.reaching`), and those that import the
class's name from any module (a re-export), are where :mod:`.subclass_text` looks for
subclasses of a module's classes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

from evalsubmit.analysis.interp.buffer_stores import BufferStores
from evalsubmit.analysis.interp.grouping import DependencyLog, StoreAnswer, StoreQuestion
from evalsubmit.analysis.interp.importer_index import FileStores as _FileStores
from evalsubmit.analysis.interp.importer_index import ImporterIndex
from evalsubmit.analysis.interp.store_text import TextStores
from evalsubmit.workspace import observed
from evalsubmit.workspace.project import Project


class ModuleStores(ImporterIndex):
    """Per project (held by its ModuleResolver, shared by threads)."""

    def __init__(self, project: Project) -> None:
        super().__init__(project)
        self._listed: tuple[int, str] | None = None
        """The project's generation and its listing's answer (an observation of the CLI)."""

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
        for path, record, stores in self._reaching(module_path, module, noting):
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
        stat or text (a buffer's by its pieces), and which files may reach a module until
        the files are looked at again, so no text is scanned again."""
        for (module_path, module, name), answer in questions:
            if answer is None:
                return False
            now = [
                path
                for path, record, stores in self._reaching(module_path, module, False)
                if _may_store(record, stores, name)
            ]
            if len(now) != len(answer) or not answer.issuperset(now):
                return False
        return True

    def _reaching(
        self, module_path: Path, module: str, noting: bool
    ) -> Iterator[tuple[Path, _FileStores | BufferStores, TextStores | BufferStores]]:
        """The project files other than the module's that may reach it, with their stores."""
        for path, record in self._candidates(module_path, module, noting):
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
        noting = observed.noting()
        if noting:
            observed.note("files", observed.files_key(self.project), self._listing())
        seen = {module_path}
        found = (self._candidates(module_path, module, noting), self._importing(name))
        for candidates in found:
            for path, record in candidates:
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

    def files_seen(self) -> object:
        """The files on disk as last looked at: the same object until they are looked at
        again (an answer found since stands while it is and no buffer changed): the index,
        made anew each time they are."""
        return self._disk_index()[0]

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
