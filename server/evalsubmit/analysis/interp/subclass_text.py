"""Which members of a class its subclasses in other files of the project define again.

:mod:`.overrides` finds the subclasses in the class's own module; a base in ``jobs/base.py``
whose placeholders (``SUITE = ""``) every job of ``jobs/teams/*.py`` sets has them elsewhere.
A class ``C`` of module ``M`` may be subclassed in a file that may reach ``M`` or import a name
``C`` from any module (:meth:`~.module_stores.ModuleStores.reaching`: found from the files'
import statements, matched by name, not resolved), and in ``M`` itself when it is not the
module analysed (the class of an annotated parameter). Such a file is parsed only when its text
holds the word ``C``; a class statement there whose bases mention ``C`` or a name the file
binds to it (``import ... as``, ``B = C``) is a subclass, as is, at any depth, a class of that
file whose bases mention one of those subclasses. Every member they define counts (as
:func:`.overrides.class_members` lists them). Followed further, each as a class of its own file:
those subclasses (a subclass of ``NightlyJob`` in another file), and ``C`` in every file
binding the name ``C`` (an import, an assignment) or importing ``*``: a module re-exporting
it.

When unsure, every member is unknown: a file that does not parse counts every word of its text
as a member and every class it defines as a subclass; past :data:`MAX_FOLLOWED` classes
followed or :data:`MAX_VISITS` files looked at for one question, the answer is "any member"
(None), as it is for a class of an installed package (outside the project root). Not seen: a
subclass made without a class statement (``type(...)``), a base reached without its name
(``bases = [C]``, ``getattr(module, "C")``), a file outside the project's listing, and what
:mod:`.module_stores` says a file cannot be seen reaching a module through.

Every file looked at is a dependency of the analysis (the editor's caches and re-checks see an
edit that adds a subclass to a file that imports the module) and an observation of it (the
CLI's result cache), with the project's listing; a file that did not reach the module is
neither, so the question and its answer are noted and asked again before a result resting on
them is reused (:mod:`.questions`: the editor's caches and re-checks, the CLI's result cache).
Asked only for a member of a generic ``self``
or ``cls`` that the class defines (the value would otherwise be trusted), once per class and
analysis (:class:`~.overrides.Overrides`); what a file's text says of its classes is kept by
its digest.
"""

from __future__ import annotations

import ast
import re
import threading
from pathlib import Path
from typing import Final

from evalsubmit.analysis.interp.grouping import DependencyLog
from evalsubmit.analysis.interp.module_stores import ModuleStores
from evalsubmit.analysis.interp.overrides import class_members
from evalsubmit.analysis.interp.store_text import whole_words
from evalsubmit.analysis.source import tree_walk
from evalsubmit.core.records import Record
from evalsubmit.workspace.observed import text_digest
from evalsubmit.workspace.project import Project

MAX_FOLLOWED = 64
"""Classes (each in its file) followed for one question before the answer is "any member"."""
MAX_VISITS = 4096
"""Files looked at (a file once per class followed) for one question, likewise."""
MAX_KEPT_FILES = 512
"""Files whose subclasses are kept by their text's digest."""

_WORD = re.compile(r"\w+")
_CLASS_NAME = re.compile(r"\bclass\s+(\w+)")
_STAR_IMPORT = re.compile(r"\bimport\s*\*|\bimport\s*\(\s*\*")


class ProjectSubclasses:
    """Per project (held by its ModuleResolver, shared by threads)."""

    def __init__(self, project: Project, stores: ModuleStores) -> None:
        self.project = project
        self._stores = stores
        self._kept: dict[str, FileClasses] = {}
        """By digest of a file's text."""
        self._lock = threading.Lock()

    def members(
        self,
        name: str,
        path: Path,
        analysed: Path | None,
        dependencies: set[Path],
        followed_names: set[str] | None = None,
    ) -> frozenset[str] | None:
        """The members subclasses of class ``name`` of the module at ``path`` define in the
        project's files other than ``analysed`` (whose own subclasses of it its analysis
        finds), or None when any member may be. Every file looked at is added to
        ``dependencies``; the names of the classes followed to ``followed_names`` (the
        analysed module is searched for subclasses of any but ``name``)."""
        root = self.project.root
        if root is not None and not path.is_relative_to(root):
            return None  # an installed package's class: its subclasses are everywhere
        found: set[str] = set()
        pending = [(name, path)]
        followed: set[tuple[str, Path]] = set()
        looked_at: dict[Path, str] = {}
        visits = 0
        while pending:
            followed_class = pending.pop()
            if followed_class in followed:
                continue
            followed.add(followed_class)
            if followed_names is not None:
                followed_names.add(followed_class[0])
            if len(followed) > MAX_FOLLOWED:
                return None
            cls, where = followed_class
            for file, text, digest in self._files(cls, where, name, path, analysed):
                looked_at[file] = digest
                visits += 1
                if visits > MAX_VISITS:
                    return None
                if not any(whole_words(text, cls)):  # the word, not a longer name
                    if file != where and _STAR_IMPORT.search(text):  # may re-export it
                        pending.append((cls, file))
                    continue
                classes = self._classes(text, digest)
                members, subclasses = classes.subclassing(cls)
                found |= members
                pending.extend((subclass, file) for subclass in subclasses)
                if file != where and cls in classes.bound:  # another file may import it here
                    pending.append((cls, file))
        for file, digest in looked_at.items():
            dependencies.add(file)
            if isinstance(dependencies, DependencyLog):
                dependencies.note(file, digest)
        return frozenset(found)

    def _files(
        self, cls: str, where: Path, asked: str, root: Path, analysed: Path | None
    ) -> list[tuple[Path, str, str]]:
        """The files that may subclass ``cls`` of ``where``: those that may reach it, and
        the class's own module (only for the class asked about: a subclass followed was found
        with its file's other subclasses)."""
        module = self.project.module_name(where)
        files = list(self._stores.reaching(where, module, cls))
        if cls == asked:  # the analysed module's own subclasses of it are its analysis's
            files = [file for file in files if file[0] != analysed]
        if where == root and where != analysed:
            text = self.project.read(where)
            if text is not None:
                files.append((where, text, text_digest(text)))
        return files

    def _classes(self, text: str, digest: str) -> FileClasses:
        with self._lock:
            kept = self._kept.get(digest)
        if kept is not None:
            return kept
        kept = FileClasses.of(text)
        with self._lock:
            if len(self._kept) >= MAX_KEPT_FILES:
                self._kept.clear()
            self._kept[digest] = kept
        return kept


class FileClasses(Record):
    """What one file's text says of its classes, read once per text: each class statement's
    name, the names its bases mention (``C``, ``m.C``, ``C[T]``, ``mixin(C)``: anywhere in a
    base expression) and the members it defines; the names the file binds to another name
    (``from m import C as B``, ``B = C``, ``B = m.C``); the names its imports and assignments
    bind. For a text that does not parse: every word of it, and every name after ``class``."""

    __slots__ = ("aliases", "bound", "classes", "unparsed")
    classes: Final[tuple[tuple[str, frozenset[str], frozenset[str]], ...]]
    aliases: Final[tuple[tuple[str, str], ...]]
    """(name bound, name it is bound to)."""
    bound: Final[frozenset[str]]
    unparsed: Final[bool]

    def __init__(
        self,
        classes: tuple[tuple[str, frozenset[str], frozenset[str]], ...],
        aliases: tuple[tuple[str, str], ...],
        bound: frozenset[str],
        unparsed: bool = False,
    ) -> None:
        self.classes = classes
        self.aliases = aliases
        self.bound = bound
        self.unparsed = unparsed

    @classmethod
    def of(cls, text: str) -> FileClasses:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            words = frozenset(_WORD.findall(text))
            named = frozenset(_CLASS_NAME.findall(text))
            return cls(tuple((name, words, words) for name in named), (), words, unparsed=True)
        classes: list[tuple[str, frozenset[str], frozenset[str]]] = []
        aliases: list[tuple[str, str]] = []
        bound: set[str] = set()
        for node in tree_walk.walk(tree):
            if isinstance(node, ast.ClassDef):
                mentioned = {
                    part.id if isinstance(part, ast.Name) else part.attr
                    for base in node.bases
                    for part in tree_walk.walk(base)
                    if isinstance(part, ast.Name | ast.Attribute)
                }
                classes.append((node.name, frozenset(mentioned), frozenset(class_members(node))))
            elif isinstance(node, ast.alias):
                last = node.name.split(".")[-1]
                bound.add(node.asname or last)
                if node.asname:
                    aliases.append((node.asname, last))
            elif isinstance(node, ast.Assign):
                value = node.value
                spelled = (
                    value.id
                    if isinstance(value, ast.Name)
                    else value.attr
                    if isinstance(value, ast.Attribute)
                    else None
                )
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        bound.add(target.id)
                        if spelled is not None:
                            aliases.append((target.id, spelled))
        return cls(tuple(classes), tuple(aliases), frozenset(bound))

    def subclassing(self, name: str) -> tuple[frozenset[str], frozenset[str]]:
        """The members the file's subclasses of ``name`` (at any depth, in any order of the
        file; through the names it binds to it) define, and their names. For a text that does
        not parse, every word and every class."""
        if self.unparsed:
            return self.bound, frozenset(named for named, _, _ in self.classes)
        names = {name}
        grown = True
        while grown:
            grown = False
            for alias, target in self.aliases:
                if target in names and alias not in names:
                    names.add(alias)
                    grown = True
        members: set[str] = set()
        subclasses: set[str] = set()
        found: set[int] = set()
        grown = True
        while grown:
            grown = False
            for index, (named, mentioned, defined) in enumerate(self.classes):
                if index not in found and not mentioned.isdisjoint(names):
                    found.add(index)
                    names.add(named)
                    subclasses.add(named)
                    members |= defined
                    grown = True
        return frozenset(members), frozenset(subclasses)
