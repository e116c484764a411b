"""The suppression grammar (core/suppression.py): ``# evalsubmit: ignore[...]``, ``# noqa``,
``# noqa: ES104, E501`` and ``# evalsubmit: ignore-file[...]``, and the edits that add codes to
a ``# noqa:`` (``--add-noqa``) or take them out (the ES190/ES191 fixes)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from evalsubmit.core.suppression import (
    WHOLE_LINE,
    Kind,
    file_suppressions,
    suppressed,
    suppressions,
    with_noqa,
    without_codes,
)


def test_noqa_bare_and_with_codes() -> None:
    assert suppressed("ES104", "x = f()  # noqa")
    assert suppressed("ES104", "x = f()  #NOQA")
    assert suppressed("ES104", "x = f()  # noqa: E501, ES104")
    assert suppressed("ES104", "x = f()  # noqa:ES104 E501")
    assert not suppressed("ES104", "x = f()  # noqa: E501")
    assert not suppressed("ES104", "x = f()  # noqa: ES105")
    assert not suppressed("ES104", "x = f()  # noqa:")  # no code: no directive (as ruff)
    assert not suppressed("ES104", "x = f()  # noqaES104")
    assert suppressed("ES104", "x = f()  # type: ignore  # noqa: ES104")


def test_the_noqa_list_tells_ours_from_other_tools() -> None:
    [comment] = suppressions("x  # noqa: E501, ES1O4, RUF100 why")
    assert comment.kind is Kind.NOQA
    assert comment.codes == ("ES1O4",)
    assert [c.code for c in comment.foreign] == ["E501", "RUF100"]
    assert "x  # noqa: E501, ES1O4, RUF100"[comment.end - 6 : comment.end] == "RUF100"


def test_every_comment_of_a_line_counts() -> None:
    line = "x  # evalsubmit: ignore[ES104]  # noqa: ES105"
    assert suppressed("ES104", line) and suppressed("ES105", line)
    assert not suppressed("ES109", line)


def test_ignore_file_on_a_line_of_its_own_only() -> None:
    lines = [
        "import os\n",
        "    # evalsubmit: ignore-file[ES104, es109]\n",
        "x = 1  # evalsubmit: ignore-file\n",  # not on its own line: nothing
        "# Evalsubmit: Ignore-File\n",
    ]
    found = file_suppressions(lines)
    assert [(line, s.codes) for line, s in found] == [(2, ("ES104", "ES109")), (4, None)]
    # an ignore-file is no line-level ignore
    assert list(suppressions("# evalsubmit: ignore-file")) == []


def test_with_noqa_merges_keeps_other_tools_and_never_duplicates() -> None:
    assert (
        with_noqa("x = f(a)\n", ["ES104", "ES105", "ES104"]) == "x = f(a)  # noqa: ES104, ES105\n"
    )
    assert with_noqa("x = f(a)  # noqa: E501\r\n", ["ES104"]) == "x = f(a)  # noqa: E501, ES104\r\n"
    assert with_noqa("x = f(a)  # noqa: ES104\n", ["ES104"]) is None
    assert with_noqa("x = f(a)  # noqa\n", ["ES104"]) is None  # bare: already silenced
    assert with_noqa("x  # evalsubmit: ignore[ES104]", ["ES104", "ES109"]) == (
        "x  # evalsubmit: ignore[ES104]  # noqa: ES109"
    )


def test_without_codes() -> None:
    line = "x = 1  # noqa: E501, ES104"
    [comment] = suppressions(line)
    assert without_codes(line, comment, ["ES104"]) == (7, 26, "# noqa: E501")
    line = "    y = 2  # evalsubmit: ignore[ES104]"
    [comment] = suppressions(line)
    assert without_codes(line, comment, ["ES104"]) == (9, len(line), "")
    line = "# evalsubmit: ignore-file[ES109]"
    [(_, comment)] = file_suppressions([line])
    assert without_codes(line, comment, ["ES109"]) == (0, WHOLE_LINE, "")


# -- properties ----------------------------------------------------------------------------

OURS = st.sampled_from(["ES101", "ES104", "ES105", "ES107", "ES109", "ES1O4"])
THEIRS = st.sampled_from(["E501", "F401", "RUF100", "W291", "B008"])
CODE_LINE = st.sampled_from(
    ["x = f(a)", "    job = client.evaluator.submit(tasks=T, target=r)", "y = {'#': 1}", ""]
)


@given(CODE_LINE, st.lists(THEIRS, max_size=3), st.lists(OURS, min_size=1, max_size=4))
def test_added_codes_are_honoured_and_other_tools_kept(
    code: str, theirs: list[str], ours: list[str]
) -> None:
    line = f"{code}  # noqa: {', '.join(theirs)}" if theirs else code
    new = with_noqa(line + "\n", ours)
    assert new is not None and new.endswith("\n") and new.count("\n") == 1
    assert new.startswith(code)
    for c in ours:
        assert suppressed(c, new)
    [comment] = [s for s in suppressions(new) if s.kind is Kind.NOQA]
    written = [c.code for c in comment.written]
    assert len(written) == len(set(written))  # never a code twice
    assert [c.code for c in comment.foreign] == list(dict.fromkeys(theirs))
    assert with_noqa(new, ours) is None  # adding again changes nothing


@given(CODE_LINE, st.lists(THEIRS, max_size=3), st.lists(OURS, min_size=1, max_size=4, unique=True))
def test_removing_our_codes_keeps_the_code_and_other_tools(
    code: str, theirs: list[str], ours: list[str]
) -> None:
    line = f"{code}  # noqa: {', '.join([*ours, *theirs])}"
    [comment] = [s for s in suppressions(line) if s.kind is Kind.NOQA]
    start, end, text = without_codes(line, comment, ours)
    assert end != WHOLE_LINE or not code
    new = "" if end == WHOLE_LINE else line[:start] + text + line[end:]
    assert new.startswith(code.rstrip())
    for c in ours:
        assert not suppressed(c, new)
    remaining = [s for s in suppressions(new) if s.kind is Kind.NOQA]
    if theirs:
        assert [c.code for c in remaining[0].foreign] == theirs
    else:
        assert remaining == [] and not re.search("noqa", new)


@given(
    st.lists(
        st.lists(
            st.sampled_from(["noqa", "NoQA", "no", "qa", "EvalSubmit", "x", " ", "#", "İ"])
        ).map(lambda words: "".join(words) + "\n"),
        max_size=12,
    )
)
def test_lines_that_may_hold_a_comment_are_found_as_line_by_line(lines: list[str]) -> None:
    """The whole-text search (one lowered copy, offsets mapped to lines) finds exactly the
    lines a look at each line finds, also when lowering changes a length (``İ``)."""
    from evalsubmit.core.suppression import lines_mentioning

    words = ("evalsubmit", "noqa")
    expected = [i for i, line in enumerate(lines) if any(w in line.lower() for w in words)]
    assert lines_mentioning(lines, words) == expected
    assert lines_mentioning(lines, words) == expected  # again: the kept lowered copy


@given(
    st.lists(
        st.lists(
            st.sampled_from(["noqa", "NoQA", "ignore-", "FILE", "EvalSubmit", "x", " ", "İ"])
        ).map(lambda words: "".join(words) + "\n"),
        max_size=12,
    )
)
def test_the_lines_noted_by_piece_answer_as_a_look_at_the_lines(lines: list[str]) -> None:
    """What the engine notes by piece (``mentions_in`` of each piece, joined) is what a look
    at the whole text finds, word by word and for several words at once."""
    from evalsubmit.core.suppression import (
        MARKER_WORDS,
        lines_mentioning,
        mentions_in,
    )

    cut = len(lines) // 2
    found: dict[str, list[int]] = {word: [] for word in MARKER_WORDS}
    for offset, piece in ((0, lines[:cut]), (cut, lines[cut:])):
        local = mentions_in("".join(piece))
        for word in MARKER_WORDS:
            found[word] += [offset + index for index in (local or {}).get(word, [])]
    looked = {word: lines_mentioning(list(lines), (word,)) for word in MARKER_WORDS}
    assert found == looked
    assert lines_mentioning(lines, ("evalsubmit", "noqa"), found) == lines_mentioning(
        list(lines), ("evalsubmit", "noqa")
    )


def test_the_editor_parse_hands_on_the_marked_lines_it_knows() -> None:
    """An edited text's parse by piece carries the lines holding each marker (what the
    suppression checks then read instead of a lowered copy of the text); they are those a look
    at its lines finds."""
    from evalsubmit.analysis.source.chunks import ChunkCache
    from evalsubmit.analysis.source.parse import parse_source
    from evalsubmit.core.suppression import MARKER_WORDS, lines_mentioning

    text = "import os\nx = 1  # noqa: ES109\n\n\ndef f():\n    return 2\n"
    cache = ChunkCache()
    assert parse_source(text, cache) is not None
    edited = text.replace("return 2", "return 3  # evalsubmit: ignore[ES101]")
    parsed = parse_source(edited, cache)
    assert parsed is not None and parsed.marked is not None
    for word in MARKER_WORDS:
        assert parsed.marked[word] == lines_mentioning(list(parsed.lines), (word,))
    assert parsed.marked["evalsubmit"] == [5] and parsed.marked["noqa"] == [1]
