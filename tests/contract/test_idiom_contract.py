"""Idiom contract test (issue 11): real evaluator code, verified against the real SDK.

The corpus (``tests/contract/idioms/``, see ``idiom_corpus.py``) is a set of small projects
written the way teams write evaluator code: objects holding clients and runners, typed helpers,
indirect calls, containers and loops, pytest/unittest suites, helpers with several call sites.
Expected findings are ``# expect:`` markers on their anchor lines.

* ``test_sdk_behaves_as_the_markers_say`` (needs the SDK venv): the oracle (``idiom_oracle.py``)
  runs every case under nemo-platform 0.6.0 with HTTP captured, and every marker must be a real
  SDK failure (or silent corruption) of that kind at that place, every SDK failure must carry its
  marker, and nothing else may go wrong (``idiom_anchors.py``). The markers are the spec, verified.
  The same holds for the examples written for issue 11.
* ``test_engine_reports_exactly_the_markers``: evalsubmit's engine, which never runs the code,
  must report exactly the markers of each case, no more, no less, and never crash.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from idiom_anchors import describe_counter, expected_findings
from idiom_corpus import EXAMPLE_CASES, GROUPS, IdiomCase, Key, all_cases, corpus_cases

from evalsubmit.analysis import Project, analyze_source

CASES = corpus_cases()
ALL = all_cases()

#: Engine gaps of the ``flow`` (issue 24) and ``unknowns`` (issue 31) groups: cases the oracle
#: verifies but the engine does not report exactly yet. Strict xfail on the engine test only, so a
#: closed gap shows up as XPASS.
#: Only cases whose markers are verified by the SDK belong here; remove an entry once it passes.
ENGINE_GAPS: dict[str, str] = {
    "flow/assert-string-guard": "missing targets.py:18 ES104 (helper called from a test)",
    "flow/usage-not-noreturn": "missing stages.py:25 ES104 (helper called from a test)",
    "flow/exit-not-called": "missing launcher.py:21 ES104 (bare sys.exit, not called)",
    # issue 31 (``unknowns``)
    "unknowns/plan-attrs-config-every-path": (
        "missing planner.py:42 ES102: the test's plans are not followed into run()"
    ),
    "unknowns/setdefault-metric-every-path": (
        "missing main.py:33 ES101: branch on main([...])'s argv not decided, tasks stays maybe-set"
    ),
}


def _id(case: IdiomCase) -> str:
    return case.id


def test_corpus_covers_every_idiom_class() -> None:
    assert len(CASES) >= 60
    assert len({c.id for c in ALL}) == len(ALL), "case ids must be unique"
    examples = {c.id for c in ALL if c.id.startswith("examples/")}
    assert examples == {f"examples/{name}" for name in EXAMPLE_CASES.values()}, "missing examples"
    for group in GROUPS:
        kinds = Counter(c.kind for c in CASES if c.group == group)
        assert kinds["wrong"] >= 5 and kinds["right"] >= 1 and kinds["unknown"] >= 1, (group, kinds)
    for case in ALL:
        marked = sum(case.markers().values())
        assert (marked > 0) == (case.kind == "wrong"), (case.id, case.kind, marked)
    assert any(len(c.files) > 1 for c in CASES if c.mode == "script"), "a multi-file script case"
    assert any(
        (c.root / "conftest.py").is_file()
        and any(len(f.relative_to(c.root).parts) > 1 for f in c.files if f.name.startswith("test_"))
        for c in CASES
    ), "a conftest.py in a parent folder of the tests"


@pytest.mark.sdk
@pytest.mark.parametrize("case", ALL, ids=_id)
def test_sdk_behaves_as_the_markers_say(case: IdiomCase, idiom_oracle: dict[str, Any]) -> None:
    result = idiom_oracle["cases"][case.id]
    expected, problems, _ = expected_findings(case, result)
    markers = case.markers()
    unverified = describe_counter(markers - expected)
    unmarked = describe_counter(expected - markers)
    assert (problems, unverified, unmarked) == ([], [], []), (
        f"problems={problems}\nmarkers without that SDK behaviour={unverified}\n"
        f"SDK behaviours without a marker={unmarked}"
    )


def engine_findings(case: IdiomCase) -> tuple[Counter[Key], list[str]]:
    """What the engine reports on the case's files (Project rooted at the case folder)."""
    got: Counter[Key] = Counter()
    crashes = []
    project = Project(root=case.root)
    for path in case.files:
        try:
            report = analyze_source(path.read_text(encoding="utf-8"), path=path, project=project)
        except Exception as exc:  # the engine must never crash; say where it did
            crashes.append(f"{case.rel(path)}: internal error {type(exc).__name__}: {exc}")
            continue
        if report.skipped is not None:
            crashes.append(f"{case.rel(path)}: skipped: {report.skipped}")
        crashes += [f"{case.rel(path)}: internal error {e}" for e in report.internal_errors]
        got.update((case.rel(path), f.span.line, f.code) for f in report.findings)
    return got, crashes


def _engine_params() -> list[Any]:
    """The cases, the known engine gaps marked strict xfail (``ENGINE_GAPS``)."""
    unknown = set(ENGINE_GAPS) - {c.id for c in CASES}
    assert not unknown, f"ENGINE_GAPS names no case: {sorted(unknown)}"
    return [
        pytest.param(
            case,
            id=case.id,
            marks=pytest.mark.xfail(strict=True, reason=ENGINE_GAPS[case.id])
            if case.id in ENGINE_GAPS
            else (),
        )
        for case in CASES
    ]


@pytest.mark.parametrize("case", _engine_params())
def test_engine_reports_exactly_the_markers(case: IdiomCase) -> None:
    got, crashes = engine_findings(case)
    expected = case.markers()
    missing = describe_counter(expected - got)
    unexpected = describe_counter(got - expected)
    assert (crashes, missing, unexpected) == ([], [], []), (
        f"crashes={crashes} missing={missing} unexpected={unexpected}"
    )
