"""ES101 mixed-shape: a sync submit() with `tasks` and `metric` or `dataset` (reference §4.1.1)."""

from __future__ import annotations

import pytest
from rule_support import Result, analyse, assert_fix, results

CASES: list[tuple[str, str, Result]] = [
    (
        "M2: both shapes, multi-line; anchored on the submit token",
        """
        job = client.evaluator.submit(
            tasks=TasksetRef("qa/mcqa-nightly"), target=gym_runner,
            metric=ExactMatchMetric(reference="{{item.a}}", candidate="{{item.b}}"),
        )
        """,
        [(1, "ES101")],
    ),
    (
        "dataset alone is enough",
        "client.evaluator.submit(tasks=T, target=gym_runner, dataset=rows)\n",
        [(1, "ES101")],
    ),
    (
        "metric and dataset: one finding",
        "client.evaluator.submit(tasks=T, target=gym_runner, metric=em, dataset=rows)\n",
        [(1, "ES101")],
    ),
    (
        "fires before the target check: no non-runner-target",
        "client.evaluator.submit(tasks=T, metric=em)\n",
        [(1, "ES101")],
    ),
    (
        "fires before the row-option check: first shape failure only",
        "client.evaluator.submit(tasks=T, target=gym_runner, metric=em, config=RunConfig())\n",
        [(1, "ES101")],
    ),
    (
        "a non-runner target is not reported on top",
        "client.evaluator.submit(tasks=T, target=cfg, dataset=rows)\n",
        [(1, "ES101")],
    ),
    (
        "runner-content kinds are not reported when the shape check fails",
        """
        bad = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"hook": print}))
        client.evaluator.submit(tasks=T, target=bad, metric=em)
        client.evaluator.submit(tasks=T, target=harbor, metric=em)
        client.evaluator.submit(tasks="a/b/c", target=gym_runner, dataset=rows)
        """,
        [(4, "ES101"), (5, "ES101"), (6, "ES101")],
    ),
    (
        "submit token on its own line in a chained call",
        """
        job = (
            client.evaluator
            .submit(tasks=T, target=gym_runner, metric=em)
        )
        """,
        [(3, "ES101")],
    ),
    (
        "metric=None is the same as omitting it",
        "client.evaluator.submit(tasks=T, target=gym_runner, metric=None, dataset=None)\n",
        [],
    ),
    (
        "tasks=None is the row path",
        "client.evaluator.submit(tasks=None, metric=em, dataset=rows)\n",
        [],
    ),
    (
        "a name bound to None counts as omitted",
        """
        extra = None
        client.evaluator.submit(tasks=T, target=gym_runner, metric=extra)
        """,
        [],
    ),
    (
        "async has no taskset shape: no-shape instead",
        """
        async def main():
            await aclient.evaluator.submit(tasks=T, metric=em, dataset=rows)
        """,
        [(2, "ES103")],
    ),
    (
        "suppressed by code",
        "client.evaluator.submit(tasks=T, target=gym_runner, metric=em)"
        "  # evalsubmit: ignore[ES101]\n",
        [],
    ),
    (
        "suppressed by a bare ignore",
        "client.evaluator.submit(tasks=T, target=gym_runner, metric=em)  # evalsubmit: ignore\n",
        [],
    ),
    (
        "an ignore for another code does not suppress it",
        "client.evaluator.submit(tasks=T, target=gym_runner, metric=em)"
        "  # evalsubmit: ignore[ES102]\n",
        [(1, "ES101"), (1, "ES190")],  # and the ignore silences nothing: ES190
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es101(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es101_kind_and_message() -> None:
    (finding,) = analyse("client.evaluator.submit(tasks=T, target=gym_runner, metric=em)\n")
    assert finding.kind == "mixed-shape"
    assert "tasks" in finding.message and "metric" in finding.message
    line = "client.evaluator.submit(tasks=T, target=gym_runner, metric=em)"
    assert finding.span.col == line.index("submit")


FIXES = [
    (
        "drop metric from a taskset call",
        "client.evaluator.submit(tasks=T, target=gym_runner, metric=em)\n",
        "client.evaluator.submit(tasks=T, target=gym_runner)\n",
    ),
    (
        "drop metric and dataset, multi-line",
        """
        job = client.evaluator.submit(
            tasks=T,
            target=gym_runner,
            metric=em,
            dataset=rows,
        )
        """,
        """
        job = client.evaluator.submit(
            tasks=T,
            target=gym_runner,
        )
        """,
    ),
    (
        "drop dataset written before tasks",
        "client.evaluator.submit(dataset=rows, tasks=T, target=gym_runner)\n",
        "client.evaluator.submit(tasks=T, target=gym_runner)\n",
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in FIXES], ids=[c[0] for c in FIXES])
def test_es101_fix_drops_the_extra_shape(source: str, expected: str) -> None:
    assert_fix(source, "ES101", expected)
