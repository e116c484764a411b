"""What one analysis of one module produces: findings plus the facts the editor features need."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import field
from enum import StrEnum
from pathlib import Path
from typing import Any

from evalsubmit.core.findings import Finding, Span, Where, where_text
from evalsubmit.core.records import record


@record
class SubclassQuestion:
    """Which members the subclasses of class ``name`` of the module at ``path`` define in the
    project's files other than ``analysed`` (:mod:`evalsubmit.analysis.interp.subclass_text`).
    """

    path: Path
    name: str
    analysed: Path | None


@record
class SubclassAnswer:
    """The members the subclasses define (None: any member may be), and the files looked at
    to find them (the analysis's dependencies: a file gaining an import of the module is
    looked at by a fresh analysis)."""

    members: frozenset[str] | None
    looked_at: frozenset[Path]


Question = tuple[Path, str, str] | SubclassQuestion
"""What an analysis asked of the other files of the project: which of them may store a
module's attribute (the module's path, its dotted name, the attribute's name: see
:mod:`evalsubmit.analysis.interp.module_stores`), or a :class:`SubclassQuestion`."""
Answer = frozenset[Path] | SubclassAnswer | None
"""The files that may store the attribute, or a :class:`SubclassAnswer`; None when one
analysis got two answers (a file changed while it ran): no answer asked again matches."""


class EngineFailure(BaseException):
    """An engine bug met while internal errors are strict (the test suites' mode).

    A ``BaseException``, so that no ``except Exception`` of the engine (which turns a bug into
    a recorded, survivable error) can swallow it on its way to the test."""


_strict_depth = 0


@contextmanager
def strict_internal_errors() -> Iterator[None]:
    """Within it, an internal error raises :class:`EngineFailure` instead of being recorded.

    In production an engine bug costs one statement (or one group's findings) and is
    recorded in ``ModuleReport.internal_errors``; a test that only looks at findings would
    then pass against an engine that fails on every statement. The test suites run strict."""
    global _strict_depth
    _strict_depth += 1
    try:
        yield
    finally:
        _strict_depth -= 1


def internal_error(where: str, error: Exception) -> str:
    """The text recorded for an engine bug at ``where`` (raised instead while strict)."""
    text = f"{where}: {type(error).__name__}: {error}"
    if _strict_depth:
        raise EngineFailure(text) from error
    return text


class Shape(StrEnum):
    TASKSET = "taskset"
    ROW = "row"
    MIXED = "mixed"
    NONE = "none"


@record(eq=False)
class TargetPreview:
    """The ``GymRunnerTarget`` JSON the SDK would send for one runner, or why it cannot be derived.

    ``target`` is set only when every part is statically known and valid: it is then exactly
    ``runner_to_target(runner).model_dump(mode="json")``; or, when the only problems are
    one-shot iterators in ``hydra_params``, the JSON that is sent (each as ``[]``), with
    ``problems`` saying so. ``rendered`` is always available: the
    JSON with unknown parts shown as ``"<unknown: why>"`` and refused parts as ``"<error: why>"``;
    it is built on first use (only hovers and previews read it, and most edits have neither).
    """

    span: Span
    runner_type: str | None
    target: dict[str, Any] | None
    render: str | Callable[[], str]
    problems: tuple[str, ...] = ()
    unknowns: tuple[str, ...] = ()
    where: tuple[Where, ...] = ()
    """The ways the code runs that make this target, when it is one of several walks of the
    same place (``when launch() is called at line 27``, ``for the 2nd plan of PLANS``): kept as
    labels, whose lines shift with the code, and rendered by :attr:`wheres`."""
    made_at: Span | None = None
    """For a name bound to a runner: the construction of the runner (in the same module)."""

    @property
    def rendered(self) -> str:
        render = self.render
        if not isinstance(render, str):
            render = render()
            object.__setattr__(self, "render", render)
        return render

    @property
    def wheres(self) -> tuple[str, ...]:
        """:attr:`where` as text, as reports show it."""
        return tuple(map(where_text, self.where))

    @property
    def submittable(self) -> bool:
        return self.target is not None and not self.problems and not self.unknowns

    def _identity(self) -> tuple[object, ...]:
        return (
            self.span,
            self.runner_type,
            self.target,
            self.rendered,
            self.problems,
            self.unknowns,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TargetPreview):
            return NotImplemented
        return self._identity() == other._identity()

    def __hash__(self) -> int:
        return hash((self.span, self.runner_type, self.problems, self.unknowns))


@record
class SubmitReport:
    """One ``<evaluator>.submit(...)`` call on the plugin evaluator."""

    span: Span
    name_span: Span
    shape: Shape
    is_async: bool
    tasks: str | None
    """The taskset reference string when statically known and valid."""
    target: TargetPreview | None
    workspace: str | None = None
    base_url: str | None = None
    has_errors: bool = False
    targets: tuple[TargetPreview, ...] = ()
    """Every distinct target this call sends, each with ``where`` it comes from (one walk of
    the call: just ``target``)."""
    target_reason: str | None = None
    """Why a ``target=`` that is supplied has no preview (the runner could not be resolved)."""


@record
class ModuleReport:
    """Everything the analysis of one module found."""

    path: Path | None
    findings: tuple[Finding, ...] = ()
    runners: tuple[TargetPreview, ...] = ()
    """Every runner construction (and name bound to one), keyed by its span."""
    submits: tuple[SubmitReport, ...] = ()
    dependencies: frozenset[Path] = field(default_factory=frozenset)
    """Sibling modules whose contents this report depends on (for cross-file re-checks)."""
    skipped: str | None = None
    """Why the module was not analysed (too large, not decodable), else ``None``."""
    workspaces: tuple[str, ...] = ()
    """Distinct ``workspace=`` literals of platform clients constructed in the module."""
    remote_findings: tuple[tuple[Path, Finding], ...] = ()
    """Findings this module's submits cause in *other* modules (a bad value written in a
    sibling module is reported there, once); the engine hands them to that module's report."""
    dependency_texts: tuple[tuple[Path, str], ...] = ()
    """Each of ``dependencies`` with the digest of the text this analysis read (what a cached
    report stands for: it is stale once one of them reads differently)."""
    store_answers: tuple[tuple[Question, Answer], ...] = ()
    """What the module stores answered this analysis (which other files may store each
    module attribute read, which members subclasses in other files define): it is stale too
    once one answers differently, though no text it read changed (a store or a subclass added
    in a file that stored or subclassed nothing)."""
    internal_errors: tuple[str, ...] = ()
    """Statements the analysis failed on (engine bugs: ``line N: KeyError: ...``). Each costs
    what that statement binds or reports; the rest of the module is analysed. Never silent:
    the CLI prints them and exits 2, the server logs them."""
    suppressed: tuple[Finding, ...] = ()
    """The findings of enabled rules that suppression comments silenced (line or file level):
    what tells a used suppression from an unused one (ES190), and what ``ignore-file`` hid."""

    # Both lookups run on the server's event loop for every hover, over every runner and submit
    # of the module (hundreds in a long script). The line test first: a span holds the position
    # only if it covers the line, and comparing two ints is far cheaper than a call to
    # Span.contains, which then runs for the few spans that cover the line. Same hits, same order.

    def preview_at(self, line: int, col: int) -> TargetPreview | None:
        """The innermost runner preview whose span holds the position (1-based line)."""
        hits = [
            p
            for p in self.runners
            if p.span.line <= line <= p.span.end_line and p.span.contains(line, col)
        ]
        for submit in self.submits:
            target = submit.target
            if (
                target is not None
                and target.span.line <= line <= target.span.end_line
                and target.span.contains(line, col)
            ):
                hits.append(target)
        return min(hits, key=_span_size, default=None)

    def submit_at(self, line: int, col: int) -> SubmitReport | None:
        hits = [
            s
            for s in self.submits
            if s.span.line <= line <= s.span.end_line and s.span.contains(line, col)
        ]
        return min(hits, key=_span_size, default=None)


def _span_size(item: TargetPreview | SubmitReport) -> tuple[int, int]:
    span = item.span
    return (span.end_line - span.line, span.end_col - span.col)
