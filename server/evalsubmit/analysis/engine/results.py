"""What the rules found in one group of facts (a top-level statement, or the function bodies it
defines): kept apart from :mod:`.caches`, which keeps these between the analyses of a document,
so that a one-shot analysis (the CLI's) imports none of the incremental machinery."""

from __future__ import annotations

from pathlib import Path

from evalsubmit.analysis.report import Question, SubmitReport, TargetPreview
from evalsubmit.core.findings import Finding
from evalsubmit.core.records import Record


class GroupResult(Record, hash=False):
    """What one group of facts gave. While it runs, an analysis that hands its findings on early
    (``on_findings``) fills ``runners`` and ``submits`` in after that; once cached, only the
    caches change it, moving its positions with its code (:mod:`.shift`): a report holds
    copies of its tuples, never the result."""

    __slots__ = (
        "dependencies",
        "errors",
        "findings",
        "gathered",
        "questions",
        "reach",
        "remote",
        "runners",
        "submits",
        "workspaces",
    )
    findings: tuple[Finding, ...]
    runners: tuple[TargetPreview, ...]
    submits: tuple[SubmitReport, ...]
    remote: tuple[tuple[Path, Finding], ...]
    workspaces: tuple[str, ...]
    dependencies: frozenset[Path]
    errors: tuple[str, ...]
    reach: tuple[int, int] | None
    """The first and last line its runner previews and submit summaries point at, once known
    (:mod:`.shift`): when every line between moves alike, they are moved after the findings."""
    questions: frozenset[Question]
    """What its walk asked of files it need not read (the report's ``store_answers`` are the
    answers to the questions of the results it is made of)."""
    gathered: bool
    """Whether it holds something the report gathers before its findings are out: findings,
    remote findings, errors, workspaces, dependencies or questions (most results of a long
    module hold none). Each of those stays empty or not once made: moved, it keeps its
    length (:mod:`.shift`). Not a parameter: neither compared nor shown."""

    def __init__(
        self,
        findings: tuple[Finding, ...],
        runners: tuple[TargetPreview, ...],
        submits: tuple[SubmitReport, ...],
        remote: tuple[tuple[Path, Finding], ...],
        workspaces: tuple[str, ...] = (),
        dependencies: frozenset[Path] = frozenset(),
        errors: tuple[str, ...] = (),
        reach: tuple[int, int] | None = None,
        questions: frozenset[Question] = frozenset(),
    ) -> None:
        self.findings = findings
        self.runners = runners
        self.submits = submits
        self.remote = remote
        self.workspaces = workspaces
        self.dependencies = dependencies
        self.errors = errors
        self.reach = reach
        self.questions = questions
        self.gathered = bool(
            findings or remote or errors or workspaces or dependencies or questions
        )
