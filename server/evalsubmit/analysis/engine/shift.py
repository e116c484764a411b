"""Cached results moved with their code: an edit that adds or removes lines moves the chunks
below it, and the results cached for their statements (keyed by text, not place) are shifted
to the lines their code is on now, instead of being made again.

Chunks are paired by code, the n-th chunk of a code with the n-th of the same code (as
statement identities are numbered, :mod:`.keys`); the lines of a chunk that has no pair (the
edited ones) have no new place, and a result that points at one is dropped (its statement is
then walked again). Paired chunks whose texts differ by blank lines (an Enter inside a body)
are paired line by line.
"""

from __future__ import annotations

import bisect
import operator
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from evalsubmit.analysis.engine.results import GroupResult
from evalsubmit.analysis.report import SubmitReport, TargetPreview
from evalsubmit.analysis.source.blank_lines import aligned_lines
from evalsubmit.analysis.source.chunks import Chunk, same_ends
from evalsubmit.core.findings import Edit, Finding, Fix, Label, Occasion, Span, Where


class Unmapped(Exception):
    """A position on a line that the edit changed: no new place is known for it."""


class LineMap:
    """Where each line of the last text is in the new one (chunk by chunk)."""

    __slots__ = ("deltas", "ends", "head", "starts", "tail", "tail_delta", "tail_end")

    def __init__(self, pairs: list[tuple[Chunk, Chunk]], *, ordered: bool = False):
        """``pairs``: each chunk of the last text with its place in the new one (``ordered``:
        already by line)."""
        if not ordered:
            pairs.sort(key=lambda pair: pair[0].start)
        self.starts = [old.start for old, _ in pairs]
        self.ends = [old.end for old, _ in pairs]
        self.deltas = [new.start - old.start for old, new in pairs]
        # Most lines are in the run of chunks before the edit (not moved) or in the run after
        # it (all moved alike): two comparisons answer for them, the bisection for the rest.
        self.head = 0
        for start, end, delta in zip(self.starts, self.ends, self.deltas, strict=True):
            if delta or start != self.head + 1:
                break
            self.head = end
        count = len(self.starts)
        self.tail = self.tail_end = 0
        self.tail_delta = self.deltas[-1] if count else 0
        if count:
            self.tail_end = self.ends[-1]
            index = count - 1
            while (
                index > 0
                and self.deltas[index - 1] == self.tail_delta
                and self.ends[index - 1] + 1 == self.starts[index]
            ):
                index -= 1
            self.tail = self.starts[index]

    def delta(self, line: int) -> int:
        if line <= self.head:
            return 0
        if self.tail <= line <= self.tail_end:
            return self.tail_delta
        index = bisect.bisect_right(self.starts, line) - 1
        if index < 0 or line > self.ends[index]:
            raise Unmapped(line)
        return self.deltas[index]

    def line(self, line: int) -> int:
        return line + self.delta(line)

    def common_delta(self, first: int, last: int) -> int | None:
        """How far every line from ``first`` to ``last`` moved, when they all moved alike
        (None: they may not have, or one was edited)."""
        if last <= self.head:
            return 0
        if self.tail <= first and last <= self.tail_end:
            return self.tail_delta
        index = bisect.bisect_right(self.starts, first) - 1
        if index < 0 or last > self.ends[index]:
            return None
        return self.deltas[index]


def line_map(
    old: Sequence[Chunk],
    new: Sequence[Chunk],
    old_lines: Sequence[str] = (),
    new_lines: Sequence[str] = (),
) -> LineMap | None:
    """How the lines of ``old``'s text (``old_lines``) moved in ``new``'s; None when none
    moved."""
    if _edited_in_place(old, new):
        return None
    return _paired_around(old, new, old_lines, new_lines)


def _paired_around(
    old: Sequence[Chunk],
    new: Sequence[Chunk],
    old_lines: Sequence[str],
    new_lines: Sequence[str],
) -> LineMap | None:
    """:func:`_paired`'s map, without looking up the chunks before and after the edit by
    code: the same chunks lead both texts (the very same records), and the chunks that end
    both alike (same code, same length) pair in order; only the chunks between are paired by
    code. That is :func:`_paired`'s pairing when no code whose count differs between the two
    middles is in the trailing run (the n-th of a code is then the n-th in both); else that
    pairing is made."""
    head = same_ends(tuple(old), tuple(new))[0]
    last_old, last_new = len(old) - 1, len(new) - 1
    while (
        last_old >= head
        and last_new >= head
        and old[last_old].digest == new[last_new].digest
        and old[last_old].end - old[last_old].start == new[last_new].end - new[last_new].start
    ):
        last_old -= 1
        last_new -= 1
    old_middle, new_middle = old[head : last_old + 1], new[head : last_new + 1]
    counts: dict[str, int] = {}
    for chunk in old_middle:
        counts[chunk.digest] = counts.get(chunk.digest, 0) + 1
    for chunk in new_middle:
        counts[chunk.digest] = counts.get(chunk.digest, 0) - 1
    old_tail, new_tail = old[last_old + 1 :], new[last_new + 1 :]
    uneven = {digest for digest, count in counts.items() if count}
    if uneven and not uneven.isdisjoint(map(_DIGEST, old_tail)):
        return _paired(old, new, old_lines, new_lines)
    pairs, moved = _pairs(old_middle, new_middle, old_lines, new_lines)
    if not (moved or any(map(operator.ne, map(_START, old_tail), map(_START, new_tail)))):
        return None  # (the leading run is where it was)
    leading = zip(old[:head], old[:head], strict=True)
    trailing = zip(old_tail, new_tail, strict=True)
    return LineMap([*leading, *pairs, *trailing], ordered=True)


_DIGEST, _START = operator.attrgetter("digest"), operator.attrgetter("start")


def _edited_in_place(old: Sequence[Chunk], new: Sequence[Chunk]) -> bool:
    """A quick yes for the common edit within lines: the chunks that differ are where they
    were (same lines), and no text of theirs, before or after, is the text of another chunk,
    so the pairing by text of :func:`_paired` moves nothing. False: not known quickly."""
    if len(old) != len(new):
        return False
    head, tail = same_ends(tuple(old), tuple(new))
    stop = len(old) - tail
    middle = range(head, stop)
    if any(old[i].start != new[i].start or old[i].end != new[i].end for i in middle):
        return False
    texts = {old[i].digest for i in middle} | {new[i].digest for i in middle}
    if len(texts) != 2 * len(middle):
        return False  # a text twice among them: let the pairing decide
    return texts.isdisjoint(map(_DIGEST, old[:head])) and texts.isdisjoint(map(_DIGEST, old[stop:]))


def _paired(
    old: Sequence[Chunk],
    new: Sequence[Chunk],
    old_lines: Sequence[str] = (),
    new_lines: Sequence[str] = (),
) -> LineMap | None:
    pairs, moved = _pairs(old, new, old_lines, new_lines)
    return LineMap(pairs) if moved else None


def _pairs(
    old: Sequence[Chunk],
    new: Sequence[Chunk],
    old_lines: Sequence[str] = (),
    new_lines: Sequence[str] = (),
) -> tuple[list[tuple[Chunk, Chunk]], bool]:
    """The chunks paired by code (the n-th of a code with the n-th), and whether one moved."""
    by_digest: dict[str, list[Chunk]] = {}
    for chunk in new:
        by_digest.setdefault(chunk.digest, []).append(chunk)
    seen: dict[str, int] = {}
    pairs: list[tuple[Chunk, Chunk]] = []
    moved = False
    for chunk in old:
        count = seen.get(chunk.digest, 0)
        seen[chunk.digest] = count + 1
        candidates = by_digest.get(chunk.digest, ())
        if count < len(candidates):
            pair = candidates[count]
            if pair.end - pair.start == chunk.end - chunk.start:
                pairs.append((chunk, pair))
                moved = moved or pair.start != chunk.start
            elif old_lines and new_lines:  # the same code, with blank lines added or removed
                pairs += _line_by_line(chunk, pair, old_lines, new_lines)
                moved = True
    return pairs, moved


def _line_by_line(
    old: Chunk, new: Chunk, old_lines: Sequence[str], new_lines: Sequence[str]
) -> list[tuple[Chunk, Chunk]]:
    """Pairs of runs of lines of ``old`` and of ``new`` (chunks of the same code whose texts
    differ by blank lines) that moved alike; a blank line removed has no pair."""
    places = aligned_lines(
        list(old_lines[old.start - 1 : old.end]), list(new_lines[new.start - 1 : new.end])
    )
    pairs: list[tuple[Chunk, Chunk]] = []
    run: tuple[int, int, int] | None = None  # first line, last line, delta
    for index, place in enumerate(places):
        line = old.start + index
        delta = None if place < 0 else new.start + place - line
        if run is not None and delta == run[2] and line == run[1] + 1:
            run = (run[0], line, run[2])
            continue
        if run is not None:
            pairs.append(_run_pair(*run))
        run = None if delta is None else (line, line, delta)
    if run is not None:
        pairs.append(_run_pair(*run))
    return pairs


def _run_pair(first: int, last: int, delta: int) -> tuple[Chunk, Chunk]:
    return Chunk(first, last, ""), Chunk(first + delta, last + delta, "")


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
