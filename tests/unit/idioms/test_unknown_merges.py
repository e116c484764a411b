"""After a merge of unknown entries (``{**D, **unknown}``, ``dict(D, **unknown)``,
``d.update(unknown)``), the entries before it may have been overridden: their keys stay, their
values are unknown. What is written after the merge stays known."""

from __future__ import annotations

import textwrap

import pytest
from idiom_support import check

MERGES = {
    "literal": "merged = {**DEFAULTS, **overrides}",
    "dict-call": "merged = dict(DEFAULTS, **overrides)",
    "update": "merged = dict(DEFAULTS)\nmerged.update(overrides)",
    "update-keywords": "merged = dict(DEFAULTS)\nmerged.update(**overrides)",
    "update-partly-known": "merged = dict(DEFAULTS)\nmerged.update({**overrides, 'agent': 'x'})",
}


@pytest.mark.parametrize("merge", MERGES.values(), ids=MERGES.keys())
def test_entries_before_an_unknown_merge_may_be_overridden(merge: str) -> None:
    merge = textwrap.indent(merge, " " * 8).lstrip()  # the body of build(), below
    check(f"""
    import json
    import sys

    DEFAULTS = {{"agent_config": "a.yaml", "resources_server": "mcqa", "concurrency": 0}}
    overrides = json.loads(sys.argv[1])

    def build():
        {merge}
        return GymRuntimeConfig(agent="simple_agent", **merged)
    """)


def test_entries_after_an_unknown_merge_stay_known() -> None:
    check("""
    import json
    import sys

    DEFAULTS = {"agent_config": "a.yaml", "resources_server": "mcqa", "concurrency": 8}
    overrides = json.loads(sys.argv[1])

    after = {**overrides, **DEFAULTS, "concurrency": 0}  # expect: ES109
    GymRuntimeConfig(agent="simple_agent", **after)
    explicit = dict(DEFAULTS, concurrency=0, **overrides)  # expect: ES109
    GymRuntimeConfig(agent="simple_agent", **explicit)
    stored = dict(DEFAULTS)
    stored.update(overrides)
    stored["concurrency"] = 0  # expect: ES109
    GymRuntimeConfig(agent="simple_agent", **stored)
    """)
