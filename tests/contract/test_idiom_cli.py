"""The idiom corpus through the command line, as a user runs it: ``evalsubmit check`` of the
whole corpus (one project, worker processes, shared reads, module stores across files) must
report exactly each case's ``# expect:`` markers, as the in-process engine test
(``test_idiom_contract``) does case by case. The known engine gaps are left out: what they
miss is held there as strict xfails."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from idiom_anchors import describe_counter
from idiom_corpus import CORPUS, Key
from test_idiom_contract import CASES, ENGINE_GAPS

from evalsubmit.cli import main


def test_check_of_the_corpus_reports_exactly_the_markers(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(["check", "--no-cache", "--output-format", "json", str(CORPUS)])
    report = json.loads(capsys.readouterr().out)
    assert report["files_skipped"] == 0, report["skipped"]
    assert report["files_checked"] >= sum(len(case.files) for case in CASES)
    roots = {case.root.resolve(): case for case in CASES}
    got: dict[str, Counter[Key]] = {case.id: Counter() for case in CASES}
    for finding in report["findings"]:
        path = Path(finding["path"]).resolve()
        case = next(roots[root] for root in roots if path.is_relative_to(root))
        got[case.id][(case.rel(path), finding["line"], finding["code"])] += 1
    wrong = {
        case.id: (
            describe_counter(got[case.id] - expected),
            describe_counter(expected - got[case.id]),
        )
        for case in CASES
        if case.id not in ENGINE_GAPS and got[case.id] != (expected := case.markers())
    }
    assert wrong == {}, "case: (unexpected, missing)"
