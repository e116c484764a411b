"""``new_span`` makes the same ``Span`` as its constructor (it sets the slots directly)."""

from __future__ import annotations

from evalsubmit.analysis.source.parse import new_span, parse_source
from evalsubmit.core.findings import Span


def test_new_span_is_the_constructors_span() -> None:
    made, built = new_span(3, 4, 5, 6), Span(3, 4, 5, 6)
    assert type(made) is Span and made == built and hash(made) == hash(built)
    assert Span.__match_args__ == ("line", "col", "end_line", "end_col")
    assert not hasattr(Span, "__post_init__")  # a check the fast path would skip
    assert sorted([made, Span(1, 0, 9, 9)]) == [Span(1, 0, 9, 9), built]


def test_spans_of_a_parse_are_spans() -> None:
    parsed = parse_source("x = f(1, 'é')\n")
    assert parsed is not None
    statement = parsed.tree.body[0]
    assert parsed.span(statement) == Span(1, 0, 1, 13)
