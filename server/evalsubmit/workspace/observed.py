"""What an analysis learnt from the file system, noted while it runs, so that a result kept
from an earlier run (the CLI's persistent cache, :mod:`evalsubmit.cli.result_cache`) is
used only when asking every one of those questions again gives the same answers.

A module's result depends on more than the modules it imports directly: the modules those
import (read once per process and then taken from the resolver's cache of scopes), the
imports that found *nothing* (a module created since would now be read), the dotted name of
each module (``__init__.py`` files) and where installed packages are found. Each such
question is an observation ``(kind, key) -> answer``:

* ``read``: a file's text (its digest; ``None``: unreadable or missing);
* ``module``: where ``find_module(dotted, importer)`` finds a project module;
* ``name``: a file's dotted module name;
* ``installed``: where the environment finds an installed module;
* ``size``: whether an installed module is too large to read;
* ``files``: the project's listing of Python files (a file created may now count);
* ``stores``, ``subclasses``: which other files may store a module attribute, which members
  subclasses in other files define (noted and answered by the analysis's
  ``interp.questions``, not here: a file that did not import the module may gain a store).

The analysis is a deterministic function of the module's text, its options, the environment
and these answers: when all of them are the same, so is the result. Nothing is noted unless a
caller asked (:func:`observing`); the language server never does.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING, Final

from evalsubmit.core.blake import blake2b
from evalsubmit.core.records import Record

if TYPE_CHECKING:
    from evalsubmit.workspace.environment import FoundModule
    from evalsubmit.workspace.project import Project

Key = tuple[str, str]
"""An observation's kind and what was asked (a path, a dotted name...)."""


class Journal:
    """The observations of one analysis (or of the reading of one imported module)."""

    __slots__ = ("complete", "records")

    def __init__(self) -> None:
        self.records: dict[Key, str | None] = {}
        self.complete = True
        """False when something was learnt that was not noted (a module scope built while
        nothing was noting) or the same question got two answers: no result may be kept."""

    def note(self, kind: str, key: str, answer: str | None) -> None:
        known = self.records.setdefault((kind, key), answer)
        if known != answer:
            self.complete = False

    def merge(self, other: Journal) -> None:
        for (kind, key), answer in other.records.items():
            self.note(kind, key, answer)
        self.complete = self.complete and other.complete


_CURRENT: ContextVar[Journal | None] = ContextVar("evalsubmit_observations", default=None)


STORES = "stores"
"""Observation kind: the files that may store a module attribute (key: the module's path,
its dotted name, the attribute's name, a line each)."""
SUBCLASSES = "subclasses"
"""Observation kind: the members subclasses in other files define (key: the class's module
path, its name, the module analysed, a line each)."""
QUESTION_KINDS = frozenset({STORES, SUBCLASSES})
"""The kinds answered by the analysis (``analysis.interp.questions``), not by
:func:`answer_now`."""


@contextmanager
def observing() -> Iterator[Journal]:
    """Note the observations made inside, into a new journal that is also merged into the
    enclosing one (a module imported while analysing another is part of both)."""
    outer = _CURRENT.get()
    journal = Journal()
    token = _CURRENT.set(journal)
    try:
        yield journal
    finally:
        _CURRENT.reset(token)
        if outer is not None:
            outer.merge(journal)


@contextmanager
def nested() -> Iterator[Journal | None]:
    """:func:`observing` when something is noting, else nothing (and ``None``)."""
    if _CURRENT.get() is None:
        yield None
    else:
        with observing() as journal:
            yield journal


def noting() -> bool:
    """Whether anything is noting (callers skip the work of describing an answer if not)."""
    return _CURRENT.get() is not None


def note(kind: str, key: str, answer: str | None) -> None:
    journal = _CURRENT.get()
    if journal is not None:
        journal.note(kind, key, answer)


def replay(recorded: Journal | None) -> None:
    """Note again what was learnt earlier for something now reused from a cache (``None``:
    it was built while nothing was noting, so what it depends on is not known)."""
    journal = _CURRENT.get()
    if journal is None:
        return
    if recorded is None:
        journal.complete = False
    else:
        journal.merge(recorded)


class Grounds(Record):
    """What one file's result stands on besides the run's key (for the result cache): made
    where the file is analysed (a worker process), from the very text analysed."""

    __slots__ = ("journal", "text")
    text: Final[str]
    """The digest of the text analysed."""
    journal: Final[Journal]

    def __init__(self, text: str, journal: Journal) -> None:
        self.text = text
        self.journal = journal


def grounds(text: str, journal: Journal) -> Grounds:
    return Grounds(text_digest(text), journal)


def text_digest(text: str) -> str:
    """A module text's identity (lone surrogates included, as Python may decode them)."""
    return blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def read_answer(text: str | None) -> str | None:
    return text_digest(text) if text is not None else None


def module_key(dotted: str, importer: Path | None) -> str:
    return f"{dotted}\n{importer if importer is not None else ''}"


def split_module_key(key: str) -> tuple[str, Path | None]:
    dotted, _, importer = key.partition("\n")
    return dotted, Path(importer) if importer else None


def installed_answer(found: FoundModule | None) -> str | None:
    """Everything the resolver uses of where an installed module was found."""
    return repr(found) if found is not None else None


def size_key(path: Path, limit: int) -> str:
    return f"{limit}\n{path}"


def size_answer(key: str) -> str:
    """Whether the file of a ``size`` key is larger than its limit (``missing``: no file)."""
    limit, _, path = key.partition("\n")
    try:
        return "large" if Path(path).stat().st_size > int(limit) else "ok"
    except (OSError, ValueError):
        return "missing"


def files_key(project: Project) -> str:
    return str(project.root)


def files_answer(project: Project) -> str:
    """The project's listing of Python files (its digest)."""
    listing = "\n".join(sorted(map(str, project.python_files())))
    return text_digest(listing)


def answer_now(project: Project, kind: str, key: str) -> str | None:
    """The answer an observation's question gets now (raises ``ValueError`` for a kind this
    version never notes)."""
    if kind == "read":
        return read_answer(project.read(Path(key)))
    if kind == "module":
        found = project.find_module(*split_module_key(key))
        return str(found) if found is not None else None
    if kind == "name":
        return project.module_name(Path(key))
    if kind == "installed":
        environment = project.environment
        return installed_answer(environment.find_module(key) if environment else None)
    if kind == "size":
        return size_answer(key)
    if kind == "files":
        return files_answer(project)
    raise ValueError(f"unknown observation {kind!r}")
