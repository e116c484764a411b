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
mentioning it (a module re-exporting it).

When unsure, every member is unknown: a file that does not parse counts every word of its text
as a member and every class it defines as a subclass; past :data:`MAX_FOLLOWED` classes
followed for one question, the answer is "any member" (None). Not seen: a subclass made
without a class statement (``type(...)``), a base reached without its name (``bases =
[C]``, ``getattr(module, "C")``), a file outside the project's listing, and what
:mod:`.module_stores` says a file cannot be seen reaching a module through.

Every file that may reach a module followed is a dependency of the analysis (the editor's
caches and re-checks see an edit that adds a subclass) and an observation of it (the CLI's
result cache), with the project's listing. Asked only for a member of a generic ``self`` or
``cls`` that the class defines (the value would otherwise be trusted), once per class and
analysis (:class:`~.objects.Objects`).
"""

from __future__ import annotations

import ast
import re
import threading
from pathlib import Path

from evalsubmit.analysis.interp.grouping import DependencyLog
from evalsubmit.analysis.interp.module_stores import ModuleStores
from evalsubmit.analysis.interp.overrides import class_members
from evalsubmit.analysis.source import tree_walk
from evalsubmit.workspace.observed import text_digest
from evalsubmit.workspace.project import Project

MAX_FOLLOWED = 32
"""Classes (each in its file) followed for one question before the answer is "any member"."""
MAX_KEPT_FILES = 512
"""Files whose subclasses are kept by their text's digest."""

_WORD = re.compile(r"\w+")
_CLASS_NAME = re.compile(r"\bclass\s+(\w+)")

Subclassing = tuple[frozenset[str], frozenset[str]]
"""What one file's subclasses of a class define, and their names."""


class ProjectSubclasses:
    """Per project (held by its ModuleResolver, shared by threads)."""

    def __init__(self, project: Project, stores: ModuleStores) -> None:
        self.project = project
        self._stores = stores
        self._kept: dict[tuple[str, str], Subclassing] = {}
        """By digest of a file's text and class name."""
        self._lock = threading.Lock()

    def members(
        self, name: str, path: Path, analysed: Path | None, dependencies: set[Path]
    ) -> frozenset[str] | None:
        """The members subclasses of class ``name`` of the module at ``path`` define in the
        project's files other than ``analysed`` (whose own subclasses its analysis finds), or
        None when any member may be. Every file looked at is added to ``dependencies``."""
        found: set[str] = set()
        pending = [(name, path)]
        followed: set[tuple[str, Path]] = set()
        while pending:
            followed_class = pending.pop()
            if followed_class in followed:
                continue
            followed.add(followed_class)
            if len(followed) > MAX_FOLLOWED:
                return None
            cls, where = followed_class
            for file, text, digest in self._files(cls, where, name, path, analysed):
                dependencies.add(file)
                if isinstance(dependencies, DependencyLog):
                    dependencies.note(file, digest)
                if not _mentions(text, cls):
                    continue
                members, subclasses = self._subclassing(text, digest, cls)
                found |= members
                pending.extend((subclass, file) for subclass in subclasses)
                if file != where:  # it may bind the name for another file to import
                    pending.append((cls, file))
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

    def _subclassing(self, text: str, digest: str, cls: str) -> Subclassing:
        key = (digest, cls)
        with self._lock:
            kept = self._kept.get(key)
        if kept is not None:
            return kept
        kept = file_subclassing(text, cls)
        with self._lock:
            if len(self._kept) >= MAX_KEPT_FILES:
                self._kept.clear()
            self._kept[key] = kept
        return kept


def _mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def file_subclassing(text: str, cls: str) -> Subclassing:
    """The members the subclasses of ``cls`` (at any depth) in one file's text define, and
    their names; for a text that does not parse, every word and every class it defines."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset(_WORD.findall(text)), frozenset(_CLASS_NAME.findall(text))
    names = _bound_to(tree, cls)
    classes = [node for node in tree_walk.walk(tree) if isinstance(node, ast.ClassDef)]
    subclasses: list[ast.ClassDef] = []
    grown = True
    while grown:  # a subclass of a subclass, in any order of the file
        grown = False
        for node in classes:
            if node not in subclasses and _bases_mention(node, names):
                subclasses.append(node)
                names.add(node.name)
                grown = True
    members: set[str] = set()
    for node in subclasses:
        members |= class_members(node)
    return frozenset(members), frozenset(node.name for node in subclasses)


def _bound_to(tree: ast.Module, cls: str) -> set[str]:
    """``cls`` and the names the file binds to it: ``from m import C as B``, ``B = C``,
    ``B = m.C`` (and names bound so to those)."""
    names = {cls}
    assignments: list[ast.Assign] = []
    for node in tree_walk.walk(tree):
        if isinstance(node, ast.alias) and node.asname and node.name.split(".")[-1] == cls:
            names.add(node.asname)
        elif isinstance(node, ast.Assign):
            assignments.append(node)
    grown = True
    while grown:
        grown = False
        for assignment in assignments:
            value = assignment.value
            spelled = (
                value.id
                if isinstance(value, ast.Name)
                else value.attr
                if isinstance(value, ast.Attribute)
                else None
            )
            if spelled in names:
                for target in assignment.targets:
                    if isinstance(target, ast.Name) and target.id not in names:
                        names.add(target.id)
                        grown = True
    return names


def _bases_mention(node: ast.ClassDef, names: set[str]) -> bool:
    """Whether a base expression of the class names one of ``names`` anywhere (``C``,
    ``m.C``, ``C[T]``, ``mixin(C)``)."""
    for base in node.bases:
        for part in tree_walk.walk(base):
            if (isinstance(part, ast.Name) and part.id in names) or (
                isinstance(part, ast.Attribute) and part.attr in names
            ):
                return True
    return False
