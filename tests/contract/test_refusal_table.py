"""Contract: the SDK's refusals come from the SDK (issue 31).

``refusal_oracle.py`` runs every program of ``refusal_cases.py`` with the real SDK (nemo-platform
0.6.0, HTTP stopped at the transport): a standard-library (or user-defined) value under
``hydra_params`` (directly and inside a list, a dict, a tuple), in ``env_vars``, as
``TasksetRef(value)`` and as ``submit(tasks=value)``. Its verdicts are the table; the static
engine, which never runs the programs, is held to it:

* where the SDK accepts, evalsubmit reports none of ES104/ES107/ES108/ES109 (precision: a finding
  here is a contract failure, never allowed);
* where the SDK refuses (or silently sends ``[]``), evalsubmit reports the rule for that place:
  ES107 under ``hydra_params`` (and for a value that passes construction but not the wire),
  ES109 for an ``env_vars`` value refused at construction, ES108 (or ES104) for ``tasks=``;
* being silent where the SDK refuses is a *miss*: allowed only for the rows of :data:`MISSES`
  (values the engine does not model statically), and every row listed there must still be a miss
  (the list is exact, not a blanket).
"""

from __future__ import annotations

import collections
import importlib.util
import types
from pathlib import Path
from typing import Any

import pytest

from evalsubmit.sdk.version import SDK_VERSION

pytestmark = pytest.mark.sdk


def _load_cases() -> types.ModuleType:
    path = Path(__file__).resolve().parent / "refusal_cases.py"
    spec = importlib.util.spec_from_file_location("evalsubmit_refusal_cases", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


CASES_MODULE = _load_cases()
CASES: dict[str, str] = dict(CASES_MODULE.cases())
PLACES: list[str] = [place.id for place in CASES_MODULE.PLACES]
VALUE_IDS: list[str] = [value.id for value in CASES_MODULE.VALUES]
RELEVANT = frozenset({"ES104", "ES107", "ES108", "ES109"})
HYDRA_PLACES = ("hydra", "hydra-list", "hydra-dict", "hydra-tuple")


#: Rows where the SDK refuses and evalsubmit is silent, by why the engine cannot tell.
MISSES: frozenset[str] = frozenset(
    {
        # submit(tasks=...) also accepts a list of task inputs (dicts), from any iterable: a
        # sequence or iterator whose items are not known statically may be one. The SDK refuses
        # these rows only because the items here (ints, strings) are not task inputs.
        "tasks/UserList",  # UserList(...) is not modelled item by item
        "tasks/generator",  # what a generator function yields is not evaluated
        "tasks/iter",  # iter(...) of a literal: its items are not tracked
        "tasks/map",  # map(f, ...): what f returns is not evaluated
    }
)


def expected_codes(case_id: str, verdict: dict[str, Any]) -> frozenset[str]:
    """The findings that stand for the SDK's verdict on this row (empty: accepted)."""
    if verdict["verdict"] == "accepted":
        return frozenset()
    place = case_id.split("/", 1)[0]
    if place in {"taskset-ref", "tasks"}:
        return frozenset({"ES108", "ES104"})
    if verdict["verdict"] == "refused" and verdict["stage"] == "construct":
        return frozenset({"ES109"})
    return frozenset({"ES107"})


def ours(case_id: str) -> frozenset[str]:
    from evalsubmit.analysis import analyze_source

    report = analyze_source(CASES[case_id], path=Path(f"{case_id.replace('/', '_')}.py"))
    return frozenset(f.code for f in report.findings) & RELEVANT


def classify(case_id: str, oracle: dict[str, Any]) -> tuple[str, frozenset[str], frozenset[str]]:
    """``agree``, ``miss``, ``false-positive`` or ``wrong-rule``, with expected and found codes."""
    verdict = oracle["cases"][case_id]
    expected = expected_codes(case_id, verdict)
    found = ours(case_id)
    if not expected:
        return ("agree" if not found else "false-positive"), expected, found
    if found & expected:
        return "agree", expected, found
    return ("miss" if not found else "wrong-rule"), expected, found


# ------------------------------------------------------------------ the table itself


def test_the_table_is_the_sdks(refusal_oracle: dict[str, Any]) -> None:
    assert refusal_oracle["sdk"]["nemo_platform"] == SDK_VERSION
    assert set(refusal_oracle["cases"]) == set(CASES)
    assert len(CASES) == len(PLACES) * len(VALUE_IDS) >= 400
    counts = collections.Counter(v["verdict"] for v in refusal_oracle["cases"].values())
    assert set(counts) == {"accepted", "refused", "iterator"}, counts
    for case_id, verdict in refusal_oracle["cases"].items():
        if verdict["verdict"] == "iterator":  # silently mangled: what is sent is []
            assert case_id.startswith("hydra") and verdict["sent"] == [[]], (case_id, verdict)
        if verdict["verdict"] == "refused":
            assert verdict["stage"] in {"construct", "submit"}, (case_id, verdict)


def test_the_misses_are_table_rows(refusal_oracle: dict[str, Any]) -> None:
    assert not MISSES - set(CASES), sorted(MISSES - set(CASES))
    accepted = {c for c in MISSES if refusal_oracle["cases"][c]["verdict"] == "accepted"}
    assert not accepted, f"a miss must be a row the SDK refuses: {sorted(accepted)}"


# ------------------------------------------------------------------ evalsubmit against the table


@pytest.mark.parametrize("place", PLACES)
def test_evalsubmit_matches_the_table(place: str, refusal_oracle: dict[str, Any]) -> None:
    failures = []
    stale = []
    for value_id in VALUE_IDS:
        case_id = f"{place}/{value_id}"
        outcome, expected, found = classify(case_id, refusal_oracle)
        if outcome == "miss" and case_id in MISSES:
            continue
        if outcome == "agree" and case_id in MISSES:
            stale.append(case_id)
        elif outcome != "agree":
            failures.append((case_id, outcome, sorted(expected), sorted(found)))
    assert not failures, "\n".join(map(repr, failures))
    assert not stale, f"found now, remove from MISSES: {stale}"


# ------------------------------------------------------------------ ES107's docs are the table


def test_the_es107_docs_are_the_table(refusal_oracle: dict[str, Any]) -> None:
    """docs/rules.md (ES107's docs, ``SDK_TABLE``) lists every value of the table once, under
    the SDK's verdict in every ``hydra_params`` place; ``STRING_LIKE`` is exactly what
    ``env_vars``, ``TasksetRef(...)`` and ``submit(tasks=...)`` accept."""
    from evalsubmit.analysis.rules.es107_unserializable_config import SDK_TABLE, STRING_LIKE

    documented: dict[str, str] = {}
    for verdict, _, labels in SDK_TABLE:
        for label in labels:
            assert label not in documented, label
            documented[label] = verdict
    by_label = {CASES_MODULE.label(value_id): value_id for value_id in VALUE_IDS}
    assert len(by_label) == len(VALUE_IDS)
    assert set(documented) == set(by_label)
    wrong = [
        (place, label, verdict, refusal_oracle["cases"][f"{place}/{by_label[label]}"]["verdict"])
        for label, verdict in documented.items()
        for place in HYDRA_PLACES
        if refusal_oracle["cases"][f"{place}/{by_label[label]}"]["verdict"] != verdict
    ]
    assert not wrong, wrong
    for place in ("env", "taskset-ref", "tasks"):
        accepted = {
            CASES_MODULE.label(value_id)
            for value_id in VALUE_IDS
            if refusal_oracle["cases"][f"{place}/{value_id}"]["verdict"] == "accepted"
        }
        assert accepted == set(STRING_LIKE), place
