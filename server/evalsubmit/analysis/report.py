"""What one analysis of one module produces: findings plus the facts the editor features need."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Any, Final

from evalsubmit.core.findings import Finding, Span, Where, where_text
from evalsubmit.core.records import Record


class SubclassQuestion(Record):
    """Which members the subclasses of class ``name`` of the module at ``path`` define in the
    project's files other than ``analysed`` (:mod:`evalsubmit.analysis.interp.subclass_text`).
    """

    __slots__ = ("analysed", "name", "path")
    path: Final[Path]
    name: Final[str]
    analysed: Final[Path | None]

    def __init__(self, path: Path, name: str, analysed: Path | None) -> None:
        self.path = path
        self.name = name
        self.analysed = analysed


class SubclassAnswer(Record):
    """The members the subclasses define (None: any member may be), and the files looked at
    to find them (the analysis's dependencies: a file gaining an import of the module is
    looked at by a fresh analysis)."""

    __slots__ = ("looked_at", "members")
    members: Final[frozenset[str] | None]
    looked_at: Final[frozenset[Path]]

    def __init__(self, members: frozenset[str] | None, looked_at: frozenset[Path]) -> None:
        self.members = members
        self.looked_at = looked_at


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


class TargetPreview(Record):
    """The ``GymRunnerTarget`` JSON the SDK would send for one runner, or why it cannot be derived.

    ``target`` is set only when every part is statically known and valid: it is then exactly
    ``runner_to_target(runner).model_dump(mode="json")``; or, when the only problems are
    one-shot iterators in ``hydra_params``, the JSON that is sent (each as ``[]``), with
    ``problems`` saying so. ``rendered`` is always available: the
    JSON with unknown parts shown as ``"<unknown: why>"`` and refused parts as ``"<error: why>"``;
    it is built on first use (only hovers and previews read it, and most edits have neither).
    """

    __slots__ = (
        "made_at",
        "problems",
        "render",
        "runner_type",
        "span",
        "target",
        "unknowns",
        "where",
    )
    span: Final[Span]
    runner_type: Final[str | None]
    target: Final[dict[str, Any] | None]
    render: Final[str | Callable[[], str]]
    problems: Final[tuple[str, ...]]
    unknowns: Final[tuple[str, ...]]
    where: Final[tuple[Where, ...]]
    """The ways the code runs that make this target, when it is one of several walks of the
    same place (``when launch() is called at line 27``, ``for the 2nd plan of PLANS``): kept as
    labels, whose lines shift with the code, and rendered by :attr:`wheres`."""
    made_at: Final[Span | None]
    """For a name bound to a runner: the construction of the runner (in the same module)."""

    def __init__(
        self,
        span: Span,
        runner_type: str | None,
        target: dict[str, Any] | None,
        render: str | Callable[[], str],
        problems: tuple[str, ...] = (),
        unknowns: tuple[str, ...] = (),
        where: tuple[Where, ...] = (),
        made_at: Span | None = None,
    ) -> None:
        self.span = span
        self.runner_type = runner_type
        self.target = target
        self.render = render
        self.problems = problems
        self.unknowns = unknowns
        self.where = where
        self.made_at = made_at

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


class SubmitReport(Record):
    """One ``<evaluator>.submit(...)`` call on the plugin evaluator."""

    __slots__ = (
        "base_url",
        "has_errors",
        "is_async",
        "name_span",
        "shape",
        "span",
        "target",
        "target_reason",
        "targets",
        "tasks",
        "workspace",
    )
    span: Final[Span]
    name_span: Final[Span]
    shape: Final[Shape]
    is_async: Final[bool]
    tasks: Final[str | None]
    """The taskset reference string when statically known and valid."""
    target: Final[TargetPreview | None]
    workspace: Final[str | None]
    base_url: Final[str | None]
    has_errors: Final[bool]
    targets: Final[tuple[TargetPreview, ...]]
    """Every distinct target this call sends, each with ``where`` it comes from (one walk of
    the call: just ``target``)."""
    target_reason: Final[str | None]
    """Why a ``target=`` that is supplied has no preview (the runner could not be resolved)."""

    def __init__(
        self,
        span: Span,
        name_span: Span,
        shape: Shape,
        is_async: bool,
        tasks: str | None,
        target: TargetPreview | None,
        workspace: str | None = None,
        base_url: str | None = None,
        has_errors: bool = False,
        targets: tuple[TargetPreview, ...] = (),
        target_reason: str | None = None,
    ) -> None:
        self.span = span
        self.name_span = name_span
        self.shape = shape
        self.is_async = is_async
        self.tasks = tasks
        self.target = target
        self.workspace = workspace
        self.base_url = base_url
        self.has_errors = has_errors
        self.targets = targets
        self.target_reason = target_reason


class ModuleReport(Record):
    """Everything the analysis of one module found."""

    __slots__ = (
        "dependencies",
        "dependency_texts",
        "findings",
        "internal_errors",
        "path",
        "remote_findings",
        "runners",
        "skipped",
        "store_answers",
        "submits",
        "suppressed",
        "workspaces",
    )
    path: Final[Path | None]
    findings: Final[tuple[Finding, ...]]
    runners: Final[tuple[TargetPreview, ...]]
    """Every runner construction (and name bound to one), keyed by its span."""
    submits: Final[tuple[SubmitReport, ...]]
    dependencies: Final[frozenset[Path]]
    """Sibling modules whose contents this report depends on (for cross-file re-checks)."""
    skipped: Final[str | None]
    """Why the module was not analysed (too large, not decodable), else ``None``."""
    workspaces: Final[tuple[str, ...]]
    """Distinct ``workspace=`` literals of platform clients constructed in the module."""
    remote_findings: Final[tuple[tuple[Path, Finding], ...]]
    """Findings this module's submits cause in *other* modules (a bad value written in a
    sibling module is reported there, once); the engine hands them to that module's report."""
    dependency_texts: Final[tuple[tuple[Path, str], ...]]
    """Each of ``dependencies`` with the digest of the text this analysis read (what a cached
    report stands for: it is stale once one of them reads differently)."""
    store_answers: Final[tuple[tuple[Question, Answer], ...]]
    """What the module stores answered this analysis (which other files may store each
    module attribute read, which members subclasses in other files define): it is stale too
    once one answers differently, though no text it read changed (a store or a subclass added
    in a file that stored or subclassed nothing)."""
    internal_errors: Final[tuple[str, ...]]
    """Statements the analysis failed on (engine bugs: ``line N: KeyError: ...``). Each costs
    what that statement binds or reports; the rest of the module is analysed. Never silent:
    the CLI prints them and exits 2, the server logs them."""
    suppressed: Final[tuple[Finding, ...]]
    """The findings of enabled rules that suppression comments silenced (line or file level):
    what tells a used suppression from an unused one (ES190), and what ``ignore-file`` hid."""

    def __init__(
        self,
        path: Path | None,
        findings: tuple[Finding, ...] = (),
        runners: tuple[TargetPreview, ...] = (),
        submits: tuple[SubmitReport, ...] = (),
        dependencies: frozenset[Path] = frozenset(),
        skipped: str | None = None,
        workspaces: tuple[str, ...] = (),
        remote_findings: tuple[tuple[Path, Finding], ...] = (),
        dependency_texts: tuple[tuple[Path, str], ...] = (),
        store_answers: tuple[tuple[Question, Answer], ...] = (),
        internal_errors: tuple[str, ...] = (),
        suppressed: tuple[Finding, ...] = (),
    ) -> None:
        self.path = path
        self.findings = findings
        self.runners = runners
        self.submits = submits
        self.dependencies = dependencies
        self.skipped = skipped
        self.workspaces = workspaces
        self.remote_findings = remote_findings
        self.dependency_texts = dependency_texts
        self.store_answers = store_answers
        self.internal_errors = internal_errors
        self.suppressed = suppressed

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
