"""How the interpreter's walk is split for the incremental caches (see ``engine.caches``)."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from pathlib import Path
from typing import Final

from evalsubmit.analysis.report import Answer, Question, SubclassAnswer, SubclassQuestion
from evalsubmit.core.records import Record
from evalsubmit.workspace.observed import text_digest

__all__ = [
    "Answer",
    "DependencyLog",
    "Grouping",
    "Question",
    "StoreAnswer",
    "StoreQuestion",
    "SubclassAnswer",
    "SubclassQuestion",
    "asked",
    "reads_the_same",
    "text_digest",
]

StoreQuestion = tuple[Path, str, str]
"""Which other project files may store a module's attribute: the module's path, its dotted
name and the attribute's name (:mod:`.module_stores`)."""
StoreAnswer = frozenset[Path] | None
"""The files that may store it (empty: none, the value the module binds is trusted); None when
one analysis got two answers (a file changed while it ran): no answer asked again matches."""


class Grouping(Record):
    """How facts are grouped for the incremental caches: ``key(i)`` is the cache key of
    top-level statement ``i`` (None: not cacheable); groups whose key is in ``known`` have cached
    results, so they are walked silently (top level) or not at all (function bodies)."""

    __slots__ = ("key", "known", "sparse", "walk")
    key: Final[Callable[[int], str | None]]
    known: Final[Collection[str]]
    walk: Final[frozenset[int] | None]
    """The top-level statements to walk (None: all). The others are not walked at all: their
    results are cached and nothing walked reads what they bind (``engine.caches``)."""
    sparse: Final[bool]
    """Only the statements walked get groups (the caches hold the others' results in place,
    in order); otherwise every statement does, those not walked with their cached results."""

    def __init__(
        self,
        key: Callable[[int], str | None],
        known: Collection[str],
        walk: frozenset[int] | None = None,
        sparse: bool = False,
    ) -> None:
        self.key = key
        self.known = known
        self.walk = walk
        self.sparse = sparse


def reads_the_same(read: Callable[[Path], str | None], texts: Iterable[tuple[Path, str]]) -> bool:
    """Whether every module still reads as it did (``texts``: path and digest, "" unknown)."""
    for path, digest in texts:
        text = read(path)
        if not digest or text is None or text_digest(text) != digest:
            return False
    return True


def asked(answers: dict[Question, Answer], question: Question, answer: Answer) -> None:
    """Note ``answer`` to ``question`` in ``answers`` (None once two answers differ)."""
    answers[question] = answer if answers.get(question, answer) == answer else None


class DependencyLog(set[Path]):
    """The modules read (collaborators ``add`` to it), also logged into ``log`` when set, the
    digest of the text each one was read with (``texts``; "" when two differed), and the
    answers of the module stores and subclasses elsewhere the walk asked (``questions``: a
    file that stored or subclassed nothing is no dependency, but a store or subclass it gains
    changes the answer)."""

    log: set[Path] | None = None
    asking: set[Question] | None = None
    """The questions asked while walking one group, when set (``log``'s counterpart)."""

    def __init__(self) -> None:
        super().__init__()
        self.texts: dict[Path, str] = {}
        self.questions: dict[Question, Answer] = {}

    def ask(self, question: Question, answer: Answer) -> None:
        asked(self.questions, question, answer)
        if self.asking is not None:
            self.asking.add(question)

    def note(self, path: Path, digest: str) -> None:
        self.texts[path] = digest if self.texts.get(path, digest) == digest else ""

    def add(self, path: Path) -> None:
        super().add(path)
        if self.log is not None:
            self.log.add(path)
