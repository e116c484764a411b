"""Names imported from the user's own modules, found by reading those modules (never importing
them): the module's top level is walked silently by the same interpreter (its own findings
belong to its own analysis) and its final bindings are cached by the module's content.

Names the project does not define are looked up in the user's installed packages (the
project's :class:`~evalsubmit.workspace.environment.PythonEnvironment`) and read the same way,
except the SDK (modelled by name), the standard library and the packages modelled by import
path (:mod:`.installed`). Reading an installed package is bounded (file size, modules per import,
depth); what cannot be read (compiled, too large, over budget) falls back to what an unknown
import gives (silence).

One :class:`ModuleResolver` per :class:`~evalsubmit.workspace.project.Project`, shared by every
analysis of that project (threads included), kept as long as the project lives.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Final

from evalsubmit.analysis.interp import questions as asking
from evalsubmit.analysis.interp.grouping import (
    Answer,
    DependencyLog,
    Question,
    SubclassQuestion,
    asked,
    reads_the_same,
    text_digest,
)
from evalsubmit.analysis.interp.installed import InstalledModules
from evalsubmit.analysis.interp.interpreter import Interpreter
from evalsubmit.analysis.interp.module_stores import ModuleStores
from evalsubmit.analysis.interp.subclass_text import ProjectSubclasses
from evalsubmit.analysis.source.parse import parse_source
from evalsubmit.analysis.values.domain import DictValue, Instance, Known, SeqValue, Unknown, Value
from evalsubmit.analysis.values.env import ModuleScope
from evalsubmit.analysis.values.objects import ModuleValue
from evalsubmit.analysis.values.store import unsealed
from evalsubmit.core.records import Record
from evalsubmit.workspace import observed
from evalsubmit.workspace.environment import PythonEnvironment
from evalsubmit.workspace.project import Project

MAX_IMPORT_DEPTH = 4
"""Modules being read at once (an import of an import of ...) before giving up."""
MAX_INSTALLED_MODULES = 48
"""Installed modules read (not taken from the cache) for one import of the project's code: a
helper package is a few modules; a framework behind a bare import must not be read whole."""

_DATA = (Known, SeqValue, DictValue, Instance)
"""Values another module may set that a check reads (constants, containers, configs)."""

_RESOLVERS: weakref.WeakKeyDictionary[Project, ModuleResolver] = weakref.WeakKeyDictionary()
_RESOLVERS_LOCK = threading.Lock()


def public_names(listed: Value | None) -> list[str] | None:
    """``__all__`` as names, when it is a list or tuple of known strings."""
    if isinstance(listed, SeqValue) and listed.complete:
        items = listed.items
        if all(isinstance(item, Known) and isinstance(item.obj, str) for item in items):
            return [str(item.obj) for item in items if isinstance(item, Known)]
    return None


class _Kept(Record):
    """A module's scope, kept while its text (``digest``) and every text building it read
    (``reads``: path and digest, the modules its imports read included, transitively) read
    the same: ``helpers.py`` unchanged but its ``constants.py`` edited is built again."""

    __slots__ = ("digest", "journal", "questions", "reads", "scope")
    digest: Final[str]
    scope: Final[ModuleScope]
    journal: Final[observed.Journal | None]
    """What building it learnt from the file system (None: nothing was noting), noted again
    each time it is reused (:mod:`evalsubmit.workspace.observed`)."""
    reads: Final[frozenset[tuple[Path, str]]]
    questions: Final[tuple[tuple[Question, Answer], ...]]
    """What the module stores (and subclasses elsewhere) answered while building it
    (transitively, as ``reads``): a ``LIMIT = settings.CONCURRENCY`` it binds is known only
    while no other file stores it."""

    def __init__(
        self,
        digest: str,
        scope: ModuleScope,
        journal: observed.Journal | None,
        reads: frozenset[tuple[Path, str]],
        questions: tuple[tuple[Question, Answer], ...],
    ) -> None:
        self.digest = digest
        self.scope = scope
        self.journal = journal
        self.reads = reads
        self.questions = questions


Questions = dict[Question, Answer]


class ModuleResolver:
    def __init__(self, project: Project) -> None:
        self.project = project
        self._kept: dict[Path, _Kept] = {}
        """Each module's last scope, with what building it read (one per path)."""
        self._reading = threading.local()
        """Per thread, the modules being read (an import of an import...): a cycle or the depth
        limit is about one chain of imports. Shared across threads, a module another document's
        analysis happened to be reading would look like a cycle and become unknown."""
        self._lock = threading.RLock()
        self._installed = InstalledModules(project, self.scope, self._lock)
        self._environment_stamp: str | None = None
        self._budget = threading.local()
        self._stores = ModuleStores(project)
        self._subclasses = ProjectSubclasses(project, self._stores)
        self._questions = asking.Questions(self._stores, self._subclasses)

    @classmethod
    def of(cls, project: Project) -> ModuleResolver:
        """The resolver of ``project`` (created on first use)."""
        with _RESOLVERS_LOCK:
            resolver = _RESOLVERS.get(project)
            if resolver is None:
                resolver = _RESOLVERS[project] = cls(project)
            return resolver

    def resolve(
        self, qualname: str, importer: Path | None, dependencies: set[Path]
    ) -> Value | None:
        """The value of ``qualname`` when it lives in the project or in a readable installed
        package, else ``None``."""
        environment = self._environment()
        if not self._installed.read_by(importer):
            found = self._in_project(qualname, importer, dependencies)
            if found is not None or environment is None:
                return found
        if environment is None:
            return None
        owner = getattr(self._budget, "left", None) is None
        if owner:
            self._budget.left = MAX_INSTALLED_MODULES
        try:
            return self._installed.value(qualname, importer, dependencies, environment)
        finally:
            if owner:
                self._budget.left = None

    def outside(self, path: Path) -> bool:
        """Whether ``path`` is an installed module outside the workspace (nothing is reported
        there: it is not the user's to fix)."""
        return self._installed.outside(path)

    def note_pieces(self, path: Path, text: str, pieces: Callable[[], list[str] | None]) -> None:
        """The text of a module being analysed, as the engine cut it in top-level pieces (an
        editor buffer's stores are then kept per piece: :mod:`.module_stores`)."""
        self._stores.note_pieces(path, text, pieces)

    def answers_the_same(self, questions: Questions) -> bool:
        """Whether the module stores and subclasses elsewhere answer each of ``questions``
        (asked by an earlier analysis) as they did then (:mod:`.questions`)."""
        return not questions or self._questions.answers_the_same(questions)

    def subclass_members(
        self, name: str, path: Path, analysed: Path | None, dependencies: set[Path]
    ) -> frozenset[str] | None:
        """The members that subclasses of the class ``name`` of the module at ``path`` define
        in the project's other files (None: any member may be): :mod:`.subclass_text`. The
        question and its answer are noted as :meth:`_set_elsewhere`'s are."""
        question = SubclassQuestion(path, name, analysed)
        answer, looked_at = self._questions.subclasses_looked_at(question)
        for file in looked_at:
            dependencies.add(file)
            if isinstance(dependencies, DependencyLog):
                dependencies.note(file, looked_at.texts[file])
        self._noted(set(), dependencies, {question: answer})
        asking.note(question, answer)
        return answer.members

    def exported(
        self, module: str, importer: Path | None, dependencies: set[Path]
    ) -> dict[str, Value] | None:
        """What ``from module import *`` binds: the names of ``__all__`` when it is a known
        list of strings, else every name not starting with ``_``."""
        path = self.project.find_module(module, importer)
        if path is None or path == (self.project.resolved(importer) if importer else None):
            return None
        dependencies.add(path)
        scope = self.scope(path, dependencies=dependencies)
        if scope is None:
            return None
        bound = scope.env.bindings
        listed = public_names(bound.get("__all__"))
        if listed is None:
            listed = [name for name in bound if not name.startswith(("_", "@"))]
        return {name: bound[name] for name in listed if name in bound}

    def _in_project(
        self, qualname: str, importer: Path | None, dependencies: set[Path]
    ) -> Value | None:
        parts = qualname.split(".")
        for cut in range(len(parts), 0, -1):
            module = ".".join(parts[:cut])
            path = self.project.find_module(module, importer)
            if path is None:
                continue
            if path == (self.project.resolved(importer) if importer else None):
                return None
            rest = parts[cut:]
            if not rest:
                return ModuleValue(module)
            dependencies.add(path)
            scope = self.scope(path, dependencies=dependencies)
            if scope is None:
                return Unknown(f"{module} could not be read")
            value = scope.env.bindings.get(rest[0])
            if value is None:
                sub = self.project.find_module(f"{module}.{rest[0]}", importer)
                return (
                    ModuleValue(f"{module}.{rest[0]}")
                    if sub
                    else Unknown(f"{rest[0]} is not defined in {module}")
                )
            if isinstance(value, _DATA) and (
                rest[0] in scope.env.rebound
                or self._set_elsewhere(path, module, rest[0], dependencies)
            ):
                # rebound by a function of its module, or set by another module: what the
                # module binds is not what a reader may see (its functions and classes are
                # taken as defined: replacing them is for tests' mocks)
                return Unknown(f"{module}.{rest[0]}, which may be set after {module} runs")
            return value if len(rest) == 1 else Unknown("attribute of an imported value")
        return None

    def _set_elsewhere(self, path: Path, module: str, name: str, dependencies: set[Path]) -> bool:
        """Whether another project file may store ``module.name``; the question and its
        answer are noted for the analysis and every scope being built (what their results
        rest on: a store appearing elsewhere changes the answer, not a text they read)."""
        answer = self._stores.set_elsewhere(path, module, name, dependencies)
        self._noted(set(), dependencies, {(path, module, name): answer})
        asking.note((path, module, name), answer)
        return bool(answer)

    def _environment(self) -> PythonEnvironment | None:
        """The project's environment; when it changed (a package installed), cached scopes may
        hold what an import resolved to before, so they are dropped."""
        environment = self.project.environment
        stamp = environment.stamp if environment is not None else None
        with self._lock:
            if stamp != self._environment_stamp:
                self._environment_stamp = stamp
                self._kept.clear()
                self._installed.forget()
        return environment

    def conftests(self, importer: Path | None, dependencies: set[Path]) -> list[ModuleScope]:
        """The ``conftest.py`` files from the importer's folder up to the project root."""
        root = self.project.root
        if importer is None or root is None:
            return []
        scopes = []
        folder = importer.resolve().parent
        while folder.is_relative_to(root):
            candidate = folder / "conftest.py"
            if candidate != importer.resolve() and self.project.read(candidate) is not None:
                dependencies.add(candidate)
                scope = self.scope(candidate, dependencies=dependencies)
                if scope is not None:
                    scopes.append(scope)
            if folder == root or folder.parent == folder:
                break
            folder = folder.parent
        return scopes

    def _loading(self) -> set[Path]:
        loading: set[Path] | None = getattr(self._reading, "paths", None)
        if loading is None:
            loading = self._reading.paths = set()
        return loading

    def scope(
        self,
        path: Path,
        name: str | None = None,
        *,
        installed: bool = False,
        dependencies: set[Path] | None = None,
    ) -> ModuleScope | None:
        """The final top-level bindings of the module at ``path`` (cached by its content);
        ``name`` is its dotted name when it is not the project's (an installed module). The
        text read is noted in ``dependencies`` when it is a :class:`DependencyLog`."""
        text = self.project.read(path)
        if text is None:
            return None
        digest = text_digest(text)
        if isinstance(dependencies, DependencyLog):
            dependencies.note(path, digest)
        with self._lock:
            kept = self._kept.get(path)
        # an installed module changes with the environment's stamp, which empties the caches
        own = set() if installed else {(path, digest)}
        if (
            kept is not None
            and kept.digest == digest
            and reads_the_same(self.project.read, kept.reads)
            and self.answers_the_same(dict(kept.questions))
        ):
            observed.replay(kept.journal)
            self._noted(own | kept.reads, dependencies, dict(kept.questions))
            return kept.scope
        with self._lock:
            loading = self._loading()
            if path in loading or len(loading) >= MAX_IMPORT_DEPTH:
                return None
            if installed:
                left = getattr(self._budget, "left", None)
                if left is not None:
                    if left <= 0:
                        return None
                    self._budget.left = left - 1
            loading.add(path)
        journal = None
        building = self._building()
        building.append((set(), {}))
        try:
            with observed.nested() as journal:
                parsed = parse_source(text)
                if parsed is None:
                    return None
                interpreter = Interpreter(
                    parsed,
                    path=path,
                    module_name=name or self.project.module_name(path),
                    resolver=self,
                    collect=False,
                    imported=True,
                )
                with unsealed():  # what its top level builds is its own, cached with it
                    scope = interpreter.run_module()
        finally:
            loading.discard(path)
            read, questions = building.pop()
            reads = frozenset(read)
        with self._lock:
            self._kept[path] = _Kept(digest, scope, journal, reads, tuple(questions.items()))
        self._noted(own | reads, dependencies, questions)
        return scope

    def _building(self) -> list[tuple[set[tuple[Path, str]], Questions]]:
        """Per thread, the texts read by each scope being built (outermost first), and the
        module stores' answers it got."""
        building: list[tuple[set[tuple[Path, str]], Questions]] | None = getattr(
            self._reading, "building", None
        )
        if building is None:
            building = self._reading.building = []
        return building

    def _noted(
        self,
        reads: set[tuple[Path, str]],
        dependencies: set[Path] | None,
        questions: Questions | None = None,
    ) -> None:
        """What a scope was built from is read by every scope being built that imports it, and
        by the analysis asking (its dependencies: an edit of any of them is seen); so are the
        module stores' answers (``questions``)."""
        for being_read, being_asked in self._building():
            being_read |= reads
            for question, answer in (questions or {}).items():
                asked(being_asked, question, answer)
        if questions and isinstance(dependencies, DependencyLog):
            for question, answer in questions.items():
                dependencies.ask(question, answer)
        if dependencies is None:
            return
        for read_path, read_digest in reads:
            dependencies.add(read_path)
            if isinstance(dependencies, DependencyLog):
                dependencies.note(read_path, read_digest)
