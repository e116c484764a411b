"""Cached results moved with their code: an edit that adds or removes lines moves the chunks
below it, and the results cached for their statements (keyed by text, not place) are shifted
to the lines their code is on now (:mod:`.line_map` says where), instead of being made again.
A result that points at a line the edit changed has no new place: it is dropped (its statement
is then walked again).
"""

from __future__ import annotations

import operator
import re
from collections.abc import Iterable
from pathlib import Path

from evalsubmit.analysis.engine.line_map import LineMap, Unmapped
from evalsubmit.analysis.engine.results import GroupResult
from evalsubmit.analysis.report import SubmitReport, TargetPreview
from evalsubmit.core.findings import Edit, Finding, Fix, Label, Occasion, Span, Where
from evalsubmit.core.records import replace

_ERROR_LINE = re.compile(r"line (\d+)")


class Shifter:
    """Results of the last text, shifted to the new one (``path``: the document's, whose
    positions move; other modules' findings keep theirs).

    Runner previews and submit summaries are not needed for the findings: a result whose
    summaries lie on lines that all moved alike (its ``reach``, known from an earlier shift)
    gets them moved by :meth:`settle`, once the findings are out. Any other is moved at once,
    so a result pointing at an edited line is still dropped before the walk."""

    def __init__(self, lines: LineMap, path: Path | None):
        self.lines = lines
        self.path = path
        self.pending: list[GroupResult] = []
        """Results whose summaries :meth:`settle` moves."""

    def move(self, result: GroupResult) -> None:
        """Move ``result``'s positions, in place (a cached result belongs to the caches alone;
        its findings and summaries are copied into each report). Raises :class:`Unmapped`
        before changing anything when one points at a line the edit changed."""
        if (
            result.reach is not None
            and (result.runners or result.submits)
            and not (result.findings or result.remote or result.errors)
        ):
            # most results: previews and summaries only, on lines that moved alike or not at
            # all (what the general path below does with them, without its empty tuples)
            first, last = result.reach
            delta = self.lines.common_delta(first, last)
            if delta == 0:
                return
            if delta is not None:
                result.reach = (first + delta, last + delta)
                self.pending.append(result)
                return
        findings = tuple(map(self.finding, result.findings))
        runners, submits, reach, later = self._summaries(result)
        remote = tuple(
            (where, self.finding(finding) if where == self.path else self.walks(finding))
            for where, finding in result.remote
        )
        errors = tuple(map(self.error, result.errors))
        result.findings, result.remote, result.errors = findings, remote, errors
        result.runners, result.submits, result.reach = runners, submits, reach
        if later:
            self.pending.append(result)

    def move_all(self, results: Iterable[tuple[str, GroupResult]]) -> list[str]:
        """Move the results of ``results`` (by key; a result under two keys moves once) as
        :meth:`move` does; the keys of those it could not move (:class:`Unmapped`), unmoved.

        Most results hold no position, or only previews and summaries above the edit (left
        as they are) or all in the run below it (moved alike: their reach now, the rest by
        :meth:`settle`): :meth:`move`'s answers for them, given here in one pass."""
        lines = self.lines
        head, tail, tail_end, tail_delta = lines.head, lines.tail, lines.tail_end, lines.tail_delta
        pending = self.pending
        moved: set[int] = set()
        others: list[tuple[str, GroupResult]] = []
        for key, result in results:
            if result.findings or result.remote or result.errors:
                others.append((key, result))
            elif result.runners or result.submits:
                reach = result.reach
                if reach is None:
                    others.append((key, result))
                elif reach[1] <= head:
                    continue  # above the edit: not moved
                elif tail <= reach[0] and reach[1] <= tail_end:
                    if tail_delta and id(result) not in moved:
                        moved.add(id(result))
                        result.reach = (reach[0] + tail_delta, reach[1] + tail_delta)
                        pending.append(result)
                else:
                    others.append((key, result))
        unmapped: set[int] = set()
        dropped: list[str] = []
        for key, result in others:
            if id(result) not in moved:
                moved.add(id(result))
                try:
                    self.move(result)
                except Unmapped:
                    unmapped.add(id(result))
            if id(result) in unmapped:
                dropped.append(key)
        return dropped

    def _summaries(
        self, result: GroupResult
    ) -> tuple[tuple[TargetPreview, ...], tuple[SubmitReport, ...], tuple[int, int] | None, bool]:
        """The result's previews and summaries moved now, or left for :meth:`settle` (True),
        with the lines they reach once moved."""
        if not (result.runners or result.submits):
            return result.runners, result.submits, None, False
        if result.reach is not None:
            first, last = result.reach
            delta = self.lines.common_delta(first, last)
            if delta == 0:
                return result.runners, result.submits, result.reach, False
            if delta is not None:
                return result.runners, result.submits, (first + delta, last + delta), True
        runners = tuple(map(self.preview, result.runners))
        submits = tuple(map(self.submit, result.submits))
        return runners, submits, summary_reach(runners, submits), False

    def settle(self) -> None:
        """Move the previews and summaries left for later."""
        for result in self.pending:
            result.runners = tuple(map(self.preview, result.runners))
            result.submits = tuple(map(self.submit, result.submits))
        self.pending = []

    def span(self, span: Span) -> Span:
        delta = self.lines.delta(span.line)
        end = self.lines.delta(span.end_line)
        if not (delta or end):
            return span
        return Span(span.line + delta, span.col, span.end_line + end, span.end_col)

    def walk(self, walk: Occasion) -> Occasion:
        return walk.shifted(self.lines.delta(walk.group.line))

    def label(self, label: Label) -> Label:
        return label.shifted(self.lines.delta(label.line)) if label.line else label

    def where(self, where: Where) -> Where:
        return tuple(map(self.label, where))

    def walks(self, finding: Finding) -> Finding:
        """A finding in another module: only the walks of this one it names move."""
        if not finding.context:
            return finding
        return replace(finding, context=tuple(map(self.walk, finding.context)))

    def finding(self, finding: Finding) -> Finding:
        span = self.span(finding.span)
        context = tuple(map(self.walk, finding.context))
        fixes = tuple(map(self.fix, finding.fixes))
        if span is finding.span and context == finding.context and _same(fixes, finding.fixes):
            return finding
        return Finding(
            finding.code,
            finding.kind,
            finding.severity,
            finding.message,
            span,
            fixes,
            context,
            finding.cell,
        )

    def fix(self, fix: Fix) -> Fix:
        spans = [self.span(edit.span) for edit in fix.edits]
        if all(new is edit.span for new, edit in zip(spans, fix.edits, strict=True)):
            return fix
        edits = tuple(Edit(span, e.new_text) for span, e in zip(spans, fix.edits, strict=True))
        return Fix(fix.title, edits, fix.applicability, fix.placeholder)

    def preview(self, preview: TargetPreview) -> TargetPreview:
        span = self.span(preview.span)
        made_at = self.span(preview.made_at) if preview.made_at is not None else None
        where = tuple(map(self.where, preview.where)) if preview.where else ()
        if span is preview.span and made_at is preview.made_at and where == preview.where:
            return preview
        return TargetPreview(
            span,
            preview.runner_type,
            preview.target,
            preview.render,
            preview.problems,
            preview.unknowns,
            where,
            made_at,
        )

    def submit(self, submit: SubmitReport) -> SubmitReport:
        span = self.span(submit.span)
        name_span = self.span(submit.name_span)
        target = self.preview(submit.target) if submit.target is not None else None
        targets = tuple(map(self.preview, submit.targets)) if submit.targets else ()
        if (
            span is submit.span
            and name_span is submit.name_span
            and target is submit.target
            and all(map(operator.is_, targets, submit.targets))
        ):
            return submit
        return SubmitReport(
            span,
            name_span,
            submit.shape,
            submit.is_async,
            submit.tasks,
            target,
            submit.workspace,
            submit.base_url,
            submit.has_errors,
            targets,
            submit.target_reason,
        )

    def error(self, error: str) -> str:
        found = _ERROR_LINE.match(error)
        if found is None:
            return error
        return f"line {self.lines.line(int(found.group(1)))}{error[found.end() :]}"


def _same(new: tuple[object, ...], old: tuple[object, ...]) -> bool:
    return all(map(operator.is_, new, old))


def summary_reach(
    runners: tuple[TargetPreview, ...], submits: tuple[SubmitReport, ...]
) -> tuple[int, int] | None:
    """The first and last line the previews and summaries point at, or None when they point at
    none: the lines :class:`Shifter` reads of them, asked of a map that moves nothing (so a
    position it learns to move is in the reach without being listed twice)."""
    reach = _Reach()
    shifter = Shifter(reach, None)
    for preview in runners:
        shifter.preview(preview)
    for submit in submits:
        shifter.submit(submit)
    return reach.lines


class _Reach(LineMap):
    """A line map that moves nothing and notes the first and last line asked about."""

    def __init__(self) -> None:
        super().__init__([], ordered=True)
        self.lines: tuple[int, int] | None = None

    def delta(self, line: int) -> int:
        lines = self.lines
        if lines is None:
            self.lines = (line, line)
        elif not lines[0] <= line <= lines[1]:
            self.lines = (min(lines[0], line), max(lines[1], line))
        return 0
