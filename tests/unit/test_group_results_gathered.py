"""A group's result says whether it holds anything the report gathers before its findings are
out: the report gathers only those, so one that says no while it holds something would lose
it (a finding, an error, a dependency ...)."""

from __future__ import annotations

from pathlib import Path

import pytest

from evalsubmit.analysis.engine.results import GroupResult
from evalsubmit.core.findings import Finding, Severity, Span

FINDING = Finding("ES104", "non-runner-target", Severity.ERROR, Span(3, 0, 3, 4), "message")
HELD = {
    "findings": (FINDING,),
    "remote": ((Path("/elsewhere.py"), FINDING),),
    "errors": ("line 3: engine bug",),
    "workspaces": ("qa",),
    "dependencies": frozenset({Path("/helpers.py")}),
    "questions": frozenset({(Path("/settings.py"), "settings", "LIMIT")}),
}
EMPTY = {"findings": (), "runners": (), "submits": (), "remote": ()}


@pytest.mark.parametrize("part", sorted(HELD))
def test_a_result_holding_one_gathered_part_is_gathered(part: str) -> None:
    assert GroupResult(**{**EMPTY, part: HELD[part]}).gathered


def test_a_result_holding_only_previews_and_summaries_is_not_gathered() -> None:
    assert not GroupResult(**EMPTY).gathered


def test_every_part_the_report_gathers_before_its_findings_is_one_of_them() -> None:
    """A part added to results must be considered here (and in ``GroupResult.gathered``)."""
    later = {"runners", "submits", "reach", "gathered"}
    assert set(GroupResult.__slots__) - later == set(HELD)
