"""What an analysis asked of the project's other files, asked again before a result resting on
it is reused.

Two questions are about files an analysis need not have read: which other files may store a
module's attribute (:mod:`.module_stores`), and which members the subclasses of a class in
other files define (:mod:`.subclass_text`). A file that stored or subclassed nothing is no
dependency of the result, yet one edited to import the module and store the attribute (or
subclass the class) changes the result though no text it read did. So each question and its
answer are noted (the walk's :class:`~.grouping.DependencyLog`, the resolver's kept scopes,
the engine's caches, ``ModuleReport.store_answers``) and asked again
(:meth:`Questions.answers_the_same`) before such a result is reused, by the editor's caches
and re-checks, and by the CLI's result cache, where each is an observation
(:mod:`evalsubmit.workspace.observed`) of kind :data:`STORES` or :data:`SUBCLASSES` answered
again by :meth:`Questions.observed_answer`.

Asking again is cheap when nothing changed: what each file imports is kept by its stat (a
buffer's by its text or pieces), what it may store by its record, what its classes are by
its text's digest; a subclass question's answer is kept while the files on disk are as last
looked at (:meth:`~.module_stores.ModuleStores.files_seen`) and the other buffers' texts are
the same (an edit of the document that asked it then walks no file).
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import cast

from evalsubmit.analysis.interp.grouping import (
    Answer,
    DependencyLog,
    Question,
    StoreAnswer,
    StoreQuestion,
    SubclassAnswer,
    SubclassQuestion,
)
from evalsubmit.analysis.interp.module_stores import ModuleStores
from evalsubmit.analysis.interp.subclass_text import ProjectSubclasses
from evalsubmit.workspace import observed
from evalsubmit.workspace.observed import QUESTION_KINDS as KINDS  # noqa: F401 (re-exported)
from evalsubmit.workspace.observed import STORES, SUBCLASSES
from evalsubmit.workspace.project import Project

MAX_KEPT_ANSWERS = 256
"""Subclass questions whose last answer is kept with what it rests on."""

_Buffers = tuple[tuple[Path, str | None], ...]
_Stamp = tuple[object, _Buffers, str | None, str | None]
"""What a subclass answer may rest on: the files on disk as last looked at (by identity),
the other buffers' texts, the class's module's text (when not the module analysed) and the
analysed module's (when it was looked at)."""


class Questions:
    """Asks the questions again, per project (held by its ModuleResolver)."""

    def __init__(self, stores: ModuleStores, subclasses: ProjectSubclasses) -> None:
        self._stores = stores
        self._subclasses = subclasses
        self._project = stores.project
        self._kept: dict[SubclassQuestion, tuple[_Stamp, SubclassAnswer]] = {}
        """Each subclass question's last answer asked again, with what it rested on."""
        self._lock = threading.Lock()

    def answers_the_same(self, questions: Mapping[Question, Answer]) -> bool:
        """Whether each question gets the answer it got (None never matches)."""
        stores: list[tuple[StoreQuestion, StoreAnswer]] = []
        seen: dict[Path | None, tuple[object, _Buffers]] = {}
        for question, answer in questions.items():
            if isinstance(question, SubclassQuestion):
                if answer is None or self._asked_again(question, seen) != answer:
                    return False
            else:
                stores.append((question, cast(StoreAnswer, answer)))
        return not stores or self._stores.answers_the_same(stores)

    def _asked_again(
        self, question: SubclassQuestion, seen: dict[Path | None, tuple[object, _Buffers]]
    ) -> SubclassAnswer:
        """The answer now, kept while what it may rest on is the same: asked again at every
        edit of the document that asked it, it then costs a look at the buffers, not a walk
        of the files that may reach the class's module (``seen``: the files and buffers by
        analysed module, looked at once for all the questions asked again together)."""
        with self._lock:
            kept = self._kept.get(question)
        if kept is not None:
            stamp = self._stamp(question, kept[0][3] is not None, seen)
            if self._same(kept[0], stamp):
                return kept[1]
        stamp = self._stamp(question, True)  # before: a change while it is asked is seen
        followed: set[str] = set()
        answer, looked_at = self.subclasses_looked_at(question, followed)
        # The analysed text matters unless it was not looked at and could not be: it is left
        # out for the class asked about only, not for a subclass followed (``class E(Sub)``
        # typed into it, ``Sub`` a subclass in another file, is one more)
        if question.analysed not in looked_at and followed <= {question.name}:
            stamp = (stamp[0], stamp[1], stamp[2], None)
        with self._lock:
            if len(self._kept) >= MAX_KEPT_ANSWERS:
                self._kept.clear()
            self._kept[question] = (stamp, answer)
        return answer

    def _stamp(
        self,
        question: SubclassQuestion,
        with_analysed: bool,
        seen: dict[Path | None, tuple[object, _Buffers]] | None = None,
    ) -> _Stamp:
        analysed = question.analysed
        common = seen.get(analysed) if seen is not None else None
        if common is None:
            buffers = tuple(
                sorted(
                    (path, self._project.read_unobserved(path))
                    for path in self._project.overlaid()
                    if path != analysed
                )
            )
            common = (self._stores.files_seen(), buffers)
            if seen is not None:
                seen[analysed] = common
        own = self._project.read_unobserved(question.path) if question.path != analysed else None
        looked = (
            (self._project.read_unobserved(analysed) or "")
            if with_analysed and analysed is not None
            else None
        )
        return (common[0], common[1], own, looked)

    @staticmethod
    def _same(kept: _Stamp, now: _Stamp) -> bool:
        return kept[0] is now[0] and kept[1:] == now[1:]

    def subclass_answer(self, question: SubclassQuestion) -> SubclassAnswer:
        return self.subclasses_looked_at(question)[0]

    def subclasses_looked_at(
        self, question: SubclassQuestion, followed: set[str] | None = None
    ) -> tuple[SubclassAnswer, DependencyLog]:
        """The answer, with the files looked at and their digests (the answer holds the
        files too: a fresh analysis depends on a file that has just come to reach the
        module, though it defines no member); the classes followed into ``followed``."""
        looked_at = DependencyLog()
        members = self._subclasses.members(
            question.name, question.path, question.analysed, looked_at, followed
        )
        return SubclassAnswer(members, frozenset(looked_at)), looked_at

    def observed_answer(self, kind: str, key: str) -> str | None:
        """The answer an observation of :data:`KINDS` gets now (raises ``ValueError`` for a
        key this version does not write)."""
        if kind == STORES:
            module_path, module, name = key.split("\n")
            found = self._stores.set_elsewhere(Path(module_path), module, name, set())
            return _answer_text(found)
        if kind == SUBCLASSES:
            path, name, analysed = key.split("\n")
            question = SubclassQuestion(Path(path), name, Path(analysed) if analysed else None)
            return _members_text(self.subclass_answer(question))
        raise ValueError(f"unknown question {kind!r}")


_OF_PROJECT: weakref.WeakKeyDictionary[Project, Questions] = weakref.WeakKeyDictionary()
_OF_PROJECT_LOCK = threading.Lock()


def of(project: Project) -> Questions:
    """The questions of ``project`` asked outside any analysis (the CLI's result cache
    consulting its entries): without the resolver, which imports the whole interpreter."""
    with _OF_PROJECT_LOCK:
        found = _OF_PROJECT.get(project)
        if found is None:
            stores = ModuleStores(project)
            found = _OF_PROJECT[project] = Questions(stores, ProjectSubclasses(project, stores))
        return found


def note(question: Question, answer: Answer) -> None:
    """Note the question and its answer as an observation of the analysis (when noting)."""
    if not observed.noting():
        return
    if isinstance(question, SubclassQuestion):
        where = str(question.analysed) if question.analysed is not None else ""
        members = _members_text(answer) if isinstance(answer, SubclassAnswer) else None
        observed.note(SUBCLASSES, "\n".join((str(question.path), question.name, where)), members)
    elif not isinstance(answer, SubclassAnswer):
        module_path, module, name = question
        observed.note(STORES, "\n".join((str(module_path), module, name)), _answer_text(answer))


def _answer_text(answer: frozenset[Path] | None) -> str | None:
    """The files that may store an attribute as an observation's answer (a digest: they can
    be many)."""
    if answer is None:
        return None
    return observed.text_digest("\n".join(sorted(map(str, answer))))


def _members_text(answer: SubclassAnswer) -> str:
    """The members subclasses define as an observation's answer: the result of the analysis
    rests on them only (what files were looked at is the editor's)."""
    if answer.members is None:
        return "any member"
    return observed.text_digest("\n".join(sorted(answer.members)))
