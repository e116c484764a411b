"""A configuration table read without pydantic (``workspace/config_plain.py``) gives what the
pydantic model gives whenever it gives anything: the same values for a valid table, and None
(the model's turn, with its messages) for every table the model refuses."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from evalsubmit.analysis.rule_codes import RULE_CODES
from evalsubmit.analysis.rules import RULES
from evalsubmit.workspace.config_model import _KEYS, validate_table
from evalsubmit.workspace.config_plain import KEYS, CheckedTable, checked_table


def test_the_codes_are_the_registrys() -> None:
    assert frozenset(RULES) == RULE_CODES


def test_the_keys_are_the_models() -> None:
    assert _KEYS == KEYS


CODES = st.sampled_from(["ES101", "es1", " ES10 ", "ALL", "all", "ES9", "ES1O1", "", " ", "E"])
GLOBS = st.sampled_from(["build/", "*.py", "!tests/**", "a[", "", " ", "**/gen_*.py", "x/**/y"])
TASKSETS = st.sampled_from(["qa/smoke", "smoke", "qa/smoke#v2", "qa/tool use", "", "a/b/c"])
VERSIONS = st.sampled_from(["0.6.0", "0.7.0rc1", "1.0.post2", "latest", "", "0.6"])
ODD = st.one_of(st.integers(-1, 2), st.booleans(), st.floats(allow_nan=False), st.none())


def _value(key: str) -> st.SearchStrategy[Any]:
    """Values for ``key``: mostly of its type (valid or not), sometimes of another."""
    strings = {
        "select": CODES,
        "extend-select": CODES,
        "ignore": CODES,
        "exclude": GLOBS,
        "extend-exclude": GLOBS,
    }
    if key in strings:
        items = st.one_of(strings[key], ODD)
        typed = st.lists(items, max_size=3)
    elif key == "per-file-ignores":
        typed = st.dictionaries(GLOBS, st.one_of(st.lists(CODES, max_size=3), CODES), max_size=3)
    elif key == "default-taskset":
        typed = TASKSETS
    elif key == "sdk-version":
        typed = VERSIONS
    else:
        typed = st.booleans()
    other = st.one_of(ODD, CODES, st.lists(CODES, max_size=2), st.just({}))
    return st.one_of(typed, typed, typed, other)


TABLES = st.dictionaries(
    st.sampled_from([*KEYS, "selct", "per_file_ignores"]), st.just(None), max_size=5
).flatmap(
    lambda keys: st.fixed_dictionaries({key: _value(key) for key in keys}) if keys else st.just({})
)


@settings(max_examples=400, deadline=None)
@given(TABLES)
def test_a_plain_reading_is_the_models(table: dict[str, Any]) -> None:
    model, problems = validate_table(table, RULE_CODES)
    plain = checked_table(table, RULE_CODES)
    if model is None:
        assert plain is None and problems
    elif plain is not None:
        assert plain == CheckedTable(**model.model_dump())


def test_the_plain_reading_reads_valid_tables() -> None:
    """The other side: the tables a project writes are read without the model."""
    table = {
        "select": ["es1", "ES190"],
        "ignore": [" ES101 "],
        "exclude": ["build/"],
        "extend-exclude": ["gen/**"],
        "per-file-ignores": {"!tests/**": ["ES110"], "*.py": []},
        "default-taskset": "qa/smoke",
        "sdk-version": "0.6.0",
        "strict": True,
    }
    plain = checked_table(table, RULE_CODES)
    model, _ = validate_table(table, RULE_CODES)
    assert plain is not None and model is not None
    assert plain == CheckedTable(**model.model_dump())
    assert plain.select == ["ES1", "ES190"] and plain.ignore == ["ES101"]
    empty, _ = validate_table({}, RULE_CODES)
    assert empty is not None
    assert checked_table({}, RULE_CODES) == CheckedTable(**empty.model_dump())


@pytest.mark.parametrize(
    "table",
    [
        {"per-file-ignores": {"": ["ES101"]}},
        {"per-file-ignores": {"!": ["ES101"]}},
        {"per-file-ignores": {"*.py": "ES101"}},
        {"per-file-ignores": ["ES101"]},
        {"strict": 1},
        {"select": "ES101"},
        {"select": [1]},
        {"ignore": ["ES999"]},
        {"extend-select": ["ES1O1"]},
        {"exclude": [" "]},
        {"extend-exclude": [""]},
        {"default-taskset": "qa/tool use"},
        {"default-taskset": ["qa/smoke"]},
        {"sdk-version": "latest"},
        {"selct": []},
    ],
)
def test_a_table_the_model_refuses_is_left_to_it(table: dict[str, Any]) -> None:
    model, problems = validate_table(table, RULE_CODES)
    assert model is None and problems
    assert checked_table(table, RULE_CODES) is None
