"""Occasion labels hold a call site's line as data: the text is made when a report is assembled,
and a walk moved with its code (``Occasion.shifted``) names the new line."""

from __future__ import annotations

from evalsubmit.analysis.report import TargetPreview
from evalsubmit.core.findings import Label, LabelKind, Occasion, Site, Span, where_text


def test_labels_render_as_messages_always_said() -> None:
    assert str(Label(LabelKind.CALL, "launch", 27)) == "when launch() is called at line 27"
    assert str(Label(LabelKind.CONSTRUCT, "Job", 9)) == "when Job() is constructed at line 9"
    assert str(Label.text("for the 2nd plan of PLANS")) == "for the 2nd plan of PLANS"
    where = (Label.text("for the 1st agent of AGENTS"), Label(LabelKind.CALL, "run", 4))
    assert where_text(where) == "for the 1st agent of AGENTS, when run() is called at line 4"


def test_a_shifted_walk_names_its_new_line() -> None:
    call = Occasion(Site("call", 27, 4), 0, 0, Label(LabelKind.CALL, "launch", 27), (27, 29))
    moved = call.shifted(3)
    assert str(moved.label) == "when launch() is called at line 30"
    assert moved.lines == (30, 32)
    assert moved.group == Site("call", 30, 4) and moved.shifted(-3) == call
    loop = Occasion(Site("loop", 5, 0), 1, 2, Label.text("for the 2nd plan of PLANS"))
    assert loop.shifted(7).label == loop.label and loop.shifted(7).lines is None
    assert loop.shifted(7).group == Site("loop", 12, 0)
    assert call.shifted(0) is call


def test_a_preview_shows_where_it_comes_from_as_text() -> None:
    where = (
        (Label(LabelKind.CALL, "launch", 22),),
        (Label.text("for the 1st plan of PLANS"), Label(LabelKind.CONSTRUCT, "Job", 8)),
    )
    preview = TargetPreview(Span(1, 0, 1, 5), None, None, "{}", where=where)
    assert preview.wheres == (
        "when launch() is called at line 22",
        "for the 1st plan of PLANS, when Job() is constructed at line 8",
    )
