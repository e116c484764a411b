"""Where each line of the last text is in the new one, after an edit that added or removed
lines: the map the cached results are moved by (:mod:`.shift`).

Chunks are paired by code, the n-th chunk of a code with the n-th of the same code (as
statement identities are numbered, :mod:`.keys`); the lines of a chunk that has no pair (the
edited ones) have no new place (:class:`Unmapped`). Paired chunks whose texts differ by blank
lines (an Enter inside a body) are paired line by line.
"""

from __future__ import annotations

import bisect
import operator
from collections.abc import Sequence

from evalsubmit.analysis.source.blank_lines import aligned_lines
from evalsubmit.analysis.source.chunks import Chunk
from evalsubmit.analysis.source.text_diff import same_ends


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
    kept: int | None = None,
) -> LineMap | None:
    """How the lines of ``old``'s text (``old_lines``) moved in ``new``'s; None when none
    moved. ``kept``: when ``new`` was parsed from ``old`` (both tile their texts), how many
    of ``old``'s last chunks it kept (:func:`_paired_around`)."""
    if _edited_in_place(old, new):
        return None
    return _paired_around(old, new, old_lines, new_lines, kept)


def _paired_around(
    old: Sequence[Chunk],
    new: Sequence[Chunk],
    old_lines: Sequence[str],
    new_lines: Sequence[str],
    kept: int | None = None,
) -> LineMap | None:
    """:func:`_paired`'s map, without looking up the chunks before and after the edit by
    code: the same chunks lead both texts (the very same records), and the chunks that end
    both alike (same code, same length) pair in order; only the chunks between are paired by
    code. That is :func:`_paired`'s pairing when no code whose count differs between the two
    middles is in the trailing run (the n-th of a code is then the n-th in both); else that
    pairing is made.

    ``kept``: ``new`` was parsed from ``old``, keeping its last ``kept`` chunks (same code,
    same length, moved alike): they are not compared again, and as both lists tile their
    texts, the leading and the trailing run each pair as one run of lines (the map the
    pairs of their chunks make: contiguous, moved alike), not chunk by chunk."""
    head = same_ends(tuple(old), tuple(new))[0]
    last_old, last_new = len(old) - 1, len(new) - 1
    if kept:  # (the comparisons the loop below would make, known true)
        skipped = min(kept, last_old + 1 - head, last_new + 1 - head)
        last_old, last_new = last_old - skipped, last_new - skipped
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
    if kept is not None:
        leading = [_run_pair(old[0].start, old[head - 1].end, 0)] if head else []
        trailing = []
        if old_tail:
            delta = new_tail[0].start - old_tail[0].start
            trailing = [_run_pair(old_tail[0].start, old_tail[-1].end, delta)]
        return LineMap([*leading, *pairs, *trailing], ordered=True)
    return LineMap(
        [*zip(old[:head], old[:head], strict=True), *pairs, *zip(old_tail, new_tail, strict=True)],
        ordered=True,
    )


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
