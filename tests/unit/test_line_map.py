"""The line map's quick answer for edits within lines agrees with pairing chunks by text, and
its answer for a range of lines agrees with its answer line by line."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from evalsubmit.analysis import Project, analyze_source
from evalsubmit.analysis.engine.line_map import (
    LineMap,
    Unmapped,
    _edited_in_place,
    _paired,
    _paired_around,
    line_map,
)
from evalsubmit.analysis.engine.shift import Shifter, summary_reach
from evalsubmit.analysis.source.chunks import Chunk, ChunkCache
from evalsubmit.analysis.source.parse import parse_source


def _chunks(rng: random.Random, texts: str) -> tuple[Chunk, ...]:
    found, line = [], 1
    for _ in range(rng.randint(0, 12)):
        text = rng.choice(texts)
        size = _size(text)
        found.append(Chunk(line, line + size - 1, text))
        line += size + rng.randint(0, 1)
    return tuple(found)


def _size(text: str) -> int:
    """How many lines a chunk of ``text`` has (one text, one size: chunks of the same code
    but other blank lines are paired line by line, with their lines: test_incremental*)."""
    return 1 + ord(text) % 3


def _same_size(rng: random.Random, texts: str, chunk: Chunk) -> str:
    return rng.choice([text for text in texts if _size(text) == _size(chunk.digest)])


def _edited(rng: random.Random, old: tuple[Chunk, ...], texts: str) -> tuple[Chunk, ...]:
    """Texts changed in place, and now and then a chunk added or removed (lines move)."""
    new = [
        Chunk(c.start, c.end, _same_size(rng, texts, c)) if rng.random() < 0.2 else c for c in old
    ]
    if new and rng.random() < 0.3:
        index = rng.randrange(len(new))
        moved = -(new[index].end - new[index].start + 1)
        new = [
            *new[:index],
            *(Chunk(c.start + moved, c.end + moved, c.digest) for c in new[index + 1 :]),
        ]
    return tuple(new)


@pytest.mark.parametrize("texts", ["ab", "abcdef", "abcdefghijklmnop"])
def test_the_quick_answer_is_the_pairings(texts: str) -> None:
    rng = random.Random(texts)
    quick = 0
    for _ in range(4000):
        old = _chunks(rng, texts)
        new = _edited(rng, old, texts)
        paired = _paired(old, new)
        if _edited_in_place(old, new):
            quick += 1
            assert paired is None, (old, new)
        assert (line_map(old, new) is None) == (paired is None)
    assert quick > 100  # the quick answer was taken, not only the pairing


def _reshaped(rng: random.Random, old: tuple[Chunk, ...], texts: str) -> tuple[Chunk, ...]:
    """``old`` edited (:func:`_edited`), then now and then chunks inserted at one place (a
    paste), the chunks after them moved down."""
    new = list(_edited(rng, old, texts))
    if rng.random() < 0.5:
        index = rng.randint(0, len(new))
        line = new[index - 1].end + 1 if index else 1
        added = []
        for _ in range(rng.randint(1, 3)):
            text = rng.choice(texts)
            added.append(Chunk(line, line + _size(text) - 1, text))
            line += _size(text)
        moved = line - (new[index - 1].end + 1 if index else 1)
        after = [Chunk(c.start + moved, c.end + moved, c.digest) for c in new[index:]]
        new = [*new[:index], *added, *after]
    return tuple(new)


def _deltas(lines: LineMap | None, last: int) -> list[int | None]:
    found: list[int | None] = []
    for line in range(1, last + 1):
        try:
            found.append(lines.delta(line) if lines is not None else 0)
        except Unmapped:
            found.append(None)
    return found


@pytest.mark.parametrize("texts", ["ab", "abc", "abcdefghijklmnop"])
def test_pairing_around_the_edit_is_the_pairing_of_every_chunk(texts: str) -> None:
    """The runs of chunks before and after an edit are paired in order, not looked up by
    code: the same map as pairing every chunk by code, repeats of a code included (few codes:
    many repeats, some of them in the trailing run with another count in the middle)."""
    rng = random.Random(f"around {texts}")
    moved = 0
    for _ in range(4000):
        old = _chunks(rng, texts)
        new = _reshaped(rng, old, texts)
        paired, around = _paired(old, new), _paired_around(old, new, (), ())
        assert (paired is None) == (around is None), (old, new)
        last = old[-1].end + 2 if old else 0
        assert _deltas(paired, last) == _deltas(around, last), (old, new)
        moved += paired is not None
        if paired is not None:
            assert (around.head, around.tail, around.tail_delta, around.tail_end) == (
                paired.head,
                paired.tail,
                paired.tail_delta,
                paired.tail_end,
            )
    assert moved > 500, moved


@pytest.mark.parametrize("texts", ["ab", "abcdef"])
def test_a_common_delta_is_every_lines_delta(texts: str) -> None:
    """``common_delta(first, last)`` is the delta of every line between them when it answers,
    and it answers for any range inside one chunk (a result deferred on its word is moved
    later, line by line, with nothing left unmapped)."""
    rng = random.Random(f"common {texts}")
    answered = 0
    for _ in range(5000):
        old = _chunks(rng, texts)
        lines = line_map(old, _edited(rng, old, texts))
        if lines is None or not old:
            continue
        last_line = old[-1].end + 2
        first = rng.randint(1, last_line)
        last = min(first + rng.choice([0, 1, 2, 40]), last_line)
        common = lines.common_delta(first, last)
        if any(c.start <= first and last <= c.end for c in old) and all(
            _mapped(lines, line) for line in range(first, last + 1)
        ):
            assert common is not None
        if common is not None:
            answered += 1
            assert all(lines.delta(line) == common for line in range(first, last + 1))
    assert answered > 200


def _mapped(lines: LineMap, line: int) -> bool:
    try:
        lines.delta(line)
    except Unmapped:
        return False
    return True


class _Recording(LineMap):
    """A line map that moves nothing and notes every line asked about."""

    def __init__(self) -> None:
        super().__init__([])
        self.asked: set[int] = set()

    def delta(self, line: int) -> int:
        self.asked.add(line)
        return 0


def test_the_reach_of_summaries_holds_every_line_the_shift_moves() -> None:
    """A result's ``reach`` (first and last line its previews and submit summaries point at)
    decides whether their move can wait: every line the shifter reads of them lies inside it.
    Checked on the previews and summaries of the examples and the preview corpus, whose
    previews name where they were made and the call sites they come from."""
    root = Path(__file__).resolve().parents[2]
    checked = labelled = 0
    for where in ("examples", "tests/contract/previews"):
        for path in sorted((root / where).rglob("*.py")):
            report = analyze_source(
                path.read_text(encoding="utf-8"), path=path, project=Project(path.parent)
            )
            for runners, submits in [((p,), ()) for p in report.runners] + [
                ((), (s,)) for s in report.submits
            ]:
                recording = _Recording()
                shifter = Shifter(recording, path)
                for preview in runners:
                    shifter.preview(preview)
                for submit in submits:
                    shifter.submit(submit)
                reach = summary_reach(runners, submits)
                assert reach is not None
                assert all(reach[0] <= line <= reach[1] for line in recording.asked)
                assert {reach[0], reach[1]} <= recording.asked
                checked += 1
                labelled += any(p.where or p.made_at for p in runners)
    assert checked > 100 and labelled > 10, (checked, labelled)


@pytest.mark.parametrize("seed", range(3))
def test_the_map_from_what_a_parse_kept_is_the_map_of_every_chunk(seed: int) -> None:
    """Chunks of successive parses (they tile their texts), with how many trailing chunks the
    parse kept: the map made without comparing those again, the runs before and after the
    edit each paired as one run of lines, answers every line and range as the map made
    chunk by chunk."""
    rng = random.Random(seed)
    statements = ["x = 1\n", "def f():\n    return 1\n", "\n", "y = [\n    2,\n]\n", "# c\n"]
    program = [rng.choice(statements) for _ in range(40)]
    cache = ChunkCache()
    previous = parse_source("".join(program), cache)
    hinted = 0
    for _ in range(150):  # statements added, removed, replaced (the text always parses)
        at = rng.randrange(len(program) + 1)
        cut = min(len(program), at + rng.choice((0, 0, 1, 3)))
        program[at:cut] = [rng.choice(statements) for _ in range(rng.choice((0, 1, 1, 2)))]
        parsed = parse_source("".join(program), cache)
        assert previous is not None and parsed is not None and parsed.chunks
        old, new = previous.chunks, parsed.chunks
        kept = parsed.kept_from(old)
        assert kept is not None  # (each parse was made from the last one by piece)
        args = (old, new, previous.lines, parsed.lines)
        plain, quick = _paired_around(*args), _paired_around(*args, kept)
        assert (plain is None) == (quick is None)
        if plain is not None and quick is not None:
            hinted += 1
            last = old[-1].end + 2 if old else 0
            assert _deltas(plain, last) == _deltas(quick, last)
            assert (plain.head, plain.tail, plain.tail_delta, plain.tail_end) == (
                quick.head,
                quick.tail,
                quick.tail_delta,
                quick.tail_end,
            )
            for _ in range(20):
                first = rng.randint(1, last)
                end = min(last, first + rng.choice((0, 1, 3, 30)))
                assert plain.common_delta(first, end) == quick.common_delta(first, end)
        assert parsed.kept_from(new) is None  # (not parsed from its own chunks)
        previous = parsed
    assert hinted > 50, hinted
