"""Whether an import statement of a file can name a module of the project, or bind a package
the module is in (for :mod:`.module_stores`: only such a file may set the module's
attributes). Answered from the statements' text (:func:`~evalsubmit.workspace.import_text.
statements_in`) and the files' paths, never from what Python would find: when a statement
might name the module, it does.

* a relative import (``from .runners import X``, ``from . import runners``,
  ``from ..pkg import m``) names what is at that place from the importing file's folder
  (``.`` is the folder, each further dot its parent);
* an absolute dotted import (``teamA.runners``) names every module whose path ends with
  those names (``…/teamA/runners.py``, ``…/teamA/runners/__init__.py``): whatever folder is
  on ``sys.path`` above them;
* a single name (``import runners``, ``from runners import X``) names a module only from a
  folder that may be on the importer's ``sys.path`` (:meth:`Asked.root_possible`): the
  importer's own folder (a script's) or one above it (a package's top, the project's root, a
  working folder), the ``src`` folder of one of those, a folder that may be installed (it
  holds ``pyproject.toml``, ``setup.py`` or ``setup.cfg``, or a configuration file of it or
  of a folder above it names it: a ``package-dir``, pytest's ``pythonpath``), and any folder
  once a file of the project may change ``sys.path`` (:func:`may_change_path`);
* a package bound (``import pkg`` or ``import pkg.other``, then ``pkg.settings.X = 1``;
  ``import a.pkg as p``, ``from a import pkg``) reaches every module under it, the package
  found as a module is.

Not seen: a folder put on ``sys.path`` from outside the project (``PYTHONPATH``, a ``.pth``
file, the working folder of ``python -m`` or ``pytest`` run in a folder that is not above the
file), ``sys.path`` or a package's ``__path__`` changed through another name, and a module
file reached through a symbolic link from another folder.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

from evalsubmit.workspace.import_text import Reach, Statement

Item = tuple[str, str, str | None, Reach]
"""One module a statement may reach (:data:`~evalsubmit.workspace.import_text.Statement`)."""

_SYS_WORD = re.compile(r"sys(?<!\wsys)")
"""``sys`` not preceded by a word character."""
_SYS_USE = re.compile(r"\s*\.\s*path\b|[ \t]+as\b|[ \t]+import\b")
"""After ``sys``: ``.path``, ``as`` (``import sys as s``), ``import`` (``from sys import``)."""


def may_change_path(text: str) -> bool:
    """Whether the text may change ``sys.path`` (or name ``sys`` otherwise: ``import sys as
    s``, ``from sys import path``): any folder may then hold a module a single name
    imports."""
    if "addsitedir" in text or "PYTHONPATH" in text:
        return True
    # the literal first, then a match there: a pattern searched is slower; and the regular
    # expression engine finds this three-letter literal several times faster than str.find
    # (store_text.occurrences): the same starts, those not preceded by a word character
    return any(_SYS_USE.match(text, found.end()) for found in _SYS_WORD.finditer(text))


PACKAGING = ("pyproject.toml", "setup.py", "setup.cfg")
"""Files of a folder that may be installed (its modules found from anywhere)."""
CONFIGURATION = (*PACKAGING, "pytest.ini", "tox.ini")
"""Files that may put a folder they name on ``sys.path`` (a ``package-dir``, pytest's
``pythonpath``, a ``PYTHONPATH`` setting)."""


def items_of(statements: Iterable[Statement]) -> tuple[Item, ...]:
    """The distinct modules the statements may reach, in order."""
    return tuple(dict.fromkeys(item for statement in statements for item in statement))


def unresolved_imports(items: Iterable[Item]) -> Iterable[tuple[str, Reach]]:
    """(module as written, reach), relative imports without their dots (as
    :func:`~evalsubmit.workspace.import_text.imports_in` gives them for no package)."""
    for _dots, module, name, reach in items:
        named = f"{module}.{name}" if module and name else (name or module)
        if named:
            yield named, reach


Place = tuple[tuple[str, ...], bool, Reach]
"""What an item names, for an importer's folder: the names (a relative import's from the root
of the file system: the folder's names, then the names after it), whether it is relative,
its reach."""


def places_by_key(folder: tuple[str, ...], items: Iterable[Item]) -> dict[str, list[Place]]:
    """What the items of a file of ``folder`` name, by each name a module they may reach has
    in its path: the last of each module named and of each package bound (a module asked
    about is looked for by each name of its path)."""
    found: dict[str, list[Place]] = {}
    for item in items:
        names = _names(folder, item)
        if names:
            place = (names, bool(item[0]), item[3])
            found.setdefault(names[-1], []).append(place)
            if item[3] == "head" and names[0] != names[-1]:  # never relative
                found.setdefault(names[0], []).append(place)
    return found


ItemKeys = tuple[str | None, str | None, tuple[tuple[str, Place], ...] | None]
"""What one item adds to a file's record: its last name and the package name it binds (as
:func:`~.store_text.import_words` finds them), and its places by key (None: a relative item,
whose places depend on the importer's folder)."""


def file_keys(
    folder: tuple[str, ...], items: Iterable[Item], memo: dict[Item, ItemKeys]
) -> tuple[dict[str, list[Place]], frozenset[str], frozenset[str]]:
    """:func:`places_by_key` of ``items`` and :func:`~.store_text.import_words` of their
    :func:`unresolved_imports`, with each absolute item's share worked out once (``memo``): most
    items of a project's files are the same few imports, and this is done for each file."""
    places: dict[str, list[Place]] = {}
    last: set[str] = set()
    packages: set[str] = set()
    for item in items:
        known = memo.get(item)
        if known is None:
            known = memo[item] = _item_keys(item)
        word, package, keyed = known
        if word is not None:
            last.add(word)
        if package is not None:
            packages.add(package)
        for key, place in keyed if keyed is not None else _keyed(folder, item):
            found = places.get(key)
            if found is None:
                places[key] = [place]
            else:
                found.append(place)
    return places, frozenset(last), frozenset(packages)


def _item_keys(item: Item) -> ItemKeys:
    dots, module, name, reach = item
    word = package = None
    named = f"{module}.{name}" if module and name else (name or module)
    if named:
        parts = named.split(".")
        word = parts[-1]
        if reach == "head":
            package = parts[0]
        elif reach == "module":
            package = parts[-1]
    return word, package, None if dots else _keyed((), item)


def _keyed(folder: tuple[str, ...], item: Item) -> tuple[tuple[str, Place], ...]:
    """``item``'s places by key (as :func:`places_by_key`)."""
    names = _names(folder, item)
    if not names:
        return ()
    place = (names, bool(item[0]), item[3])
    if item[3] == "head" and names[0] != names[-1]:  # never relative
        return ((names[-1], place), (names[0], place))
    return ((names[-1], place),)


class Asked:
    """A module asked about: its file's path as names (the resolved path, without ``.py``
    and ``__init__``), and which folders of it may be on an importer's ``sys.path``."""

    __slots__ = ("any_root", "installed", "parts")

    def __init__(self, parts: tuple[str, ...], installed: frozenset[int], any_root: bool) -> None:
        self.parts = parts
        self.installed = installed
        """Each ``j`` whose folder ``parts[:j]`` may be on every ``sys.path``."""
        self.any_root = any_root

    @classmethod
    def of(
        cls,
        module_path: Path,
        root: Path | None,
        configuration: Callable[[Path], dict[str, str]],
        any_root: bool,
    ) -> Asked:
        """``module_path`` (resolved); ``configuration`` gives a folder's configuration files
        (name -> text) among :data:`CONFIGURATION`."""
        path = module_path.with_suffix("")
        parts = path.parts[:-1] if path.name == "__init__" else path.parts
        if root is None or not module_path.is_relative_to(root):
            return cls(parts, frozenset(), True)  # its roots unknown: any folder may be one
        installed: set[int] = set()
        if not any_root:
            # the folders above the project's root are above every project file
            for j in range(len(root.parts), len(parts)):
                if _may_be_installed(Path(*parts[:j]), root, configuration):
                    installed.add(j)
        return cls(parts, frozenset(installed), any_root)

    def root_possible(self, folder: tuple[str, ...], j: int) -> bool:
        """Whether the folder ``parts[:j]`` may be on ``sys.path`` for a file of ``folder``
        (both as path names)."""
        if self.any_root or j in self.installed:
            return True
        if j <= len(folder) and folder[:j] == self.parts[:j]:
            return True  # the importer's folder or one above it
        return (
            j >= 1
            and self.parts[j - 1] == "src"
            and j - 1 <= len(folder)
            and folder[: j - 1] == self.parts[: j - 1]
        )

    def reached_by(self, folder: tuple[str, ...], places: Iterable[Place]) -> bool:
        """Whether an import of a file of ``folder`` naming ``places`` may name this module or
        bind a package it is in."""
        return any(self._reached_by_place(folder, place) for place in places)

    def _reached_by_place(self, folder: tuple[str, ...], place: Place) -> bool:
        names, relative, reach = place
        parts = self.parts
        if relative:  # a place: the module itself, or a package it is in
            if reach == "module" and len(names) < len(parts):
                return parts[: len(names)] == names
            return parts == names
        size = len(names)
        if parts[-size:] == names and (size > 1 or self.root_possible(folder, len(parts) - 1)):
            return True
        bound = names[:1] if reach == "head" else names if reach == "module" else ()
        if not bound:
            return False
        size = len(bound)
        for end in range(size, len(parts)):  # the package's last name at parts[end - 1]
            if parts[end - size : end] == bound and (
                size > 1 or self.root_possible(folder, end - 1)
            ):
                return True
        return False


def module_names(module_path: Path, module: str, root: Path | None) -> tuple[str, frozenset[str]]:
    """The module's last name, and the names of the packages it is in (matched by name when
    its dotted name is not its path's: a module found through a symbolic link)."""
    parts = module.split(".")
    if parts[-1] == "__init__":
        parts.pop()
    packages = set(parts[:-1])
    if root is not None and module_path.is_relative_to(root):
        folders = module_path.relative_to(root).parts[:-1]
        packages.update(folders[:-1] if module_path.name == "__init__.py" else folders)
    return parts[-1], frozenset(packages)


def _names(folder: tuple[str, ...], item: Item) -> tuple[str, ...]:
    """The names an item reaches: a relative one from the root of the file system (the
    importer's folder's names and the names after it), an absolute one as written."""
    dots, module, name, _reach = item
    names = (*(module.split(".") if module else ()), *(name.split(".") if name else ()))
    if not dots:
        return names
    up = len(dots) - 1
    if up >= len(folder):
        return ()  # above the file system's root: an error when run
    return (*folder[: len(folder) - up], *names)


def _may_be_installed(
    folder: Path, root: Path, configuration: Callable[[Path], dict[str, str]]
) -> bool:
    """Whether ``folder`` may be on every ``sys.path``: it may be installed (a packaging file
    in it, or in the folder above its ``src``), or a configuration file in it or above it, in
    the project, names it."""
    if any(name in configuration(folder) for name in PACKAGING):
        return True
    if folder.name == "src" and any(name in configuration(folder.parent) for name in PACKAGING):
        return True
    for above in (folder, *folder.parents):
        if any(folder.name in text for text in configuration(above).values()):
            return True
        if above == root:
            break
    return False
