"""ES103 no-shape: a sync call with neither `tasks` nor both `metric` and `dataset`
(reference §4.2.5), and any async call that passes `tasks=` or lacks `metric`/`dataset` (§3.2)."""

from __future__ import annotations

import pytest
from rule_support import Result, analyse, results

CASES: list[tuple[str, str, Result]] = [
    ("M5: forgot tasks", "client.evaluator.submit(target=gym_runner)\n", [(1, "ES103")]),
    ("no arguments", "client.evaluator.submit()\n", [(1, "ES103")]),
    ("metric only", "client.evaluator.submit(metric=em)\n", [(1, "ES103")]),
    ("dataset only", "client.evaluator.submit(dataset=rows)\n", [(1, "ES103")]),
    (
        "metric and a runner: ends here, not at the mirror check",
        "client.evaluator.submit(metric=em, target=gym_runner)\n",
        [(1, "ES103")],
    ),
    (
        "dataset=None counts as omitted",
        "client.evaluator.submit(metric=em, dataset=None)\n",
        [(1, "ES103")],
    ),
    (
        "tasks=None is not a taskset",
        "client.evaluator.submit(tasks=None, target=gym_runner)\n",
        [(1, "ES103")],
    ),
    (
        "only a row option",
        "client.evaluator.submit(config=RunConfig())\n",
        [(1, "ES103")],
    ),
    (
        "multi-line: anchored on the submit token",
        """
        job = client.evaluator.submit(
            target=gym_runner,
        )
        """,
        [(1, "ES103")],
    ),
    (
        "M11: the async evaluator has no taskset shape",
        """
        async def main():
            job = await aclient.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=gym_runner)
        """,
        [(2, "ES103")],
    ),
    (
        "async: no arguments",
        """
        async def main():
            await aclient.evaluator.submit()
        """,
        [(2, "ES103")],
    ),
    (
        "async: metric only",
        """
        async def main():
            await aclient.evaluator.submit(metric=em)
        """,
        [(2, "ES103")],
    ),
    (
        "async: tasks next to a complete row shape",
        """
        async def main():
            await aclient.evaluator.submit(tasks=T, metric=em, dataset=rows)
        """,
        [(2, "ES103")],
    ),
    (
        "async: runner contents and plain-string tasks are not checked",
        """
        bad = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"hook": print}))
        async def main():
            await aclient.evaluator.submit(tasks="a/b/c", target=bad)
            await aclient.evaluator.submit(tasks=T, target=harbor)
        """,
        [(5, "ES103"), (6, "ES103")],
    ),
    (
        "async: a malformed TasksetRef is still reported where it is constructed",
        """
        async def main():
            await aclient.evaluator.submit(tasks=TasksetRef("org/qa/smoke"), target=gym_runner)
        """,
        [(2, "ES103"), (2, "ES108")],
    ),
    (
        "async multi-line: the submit line",
        """
        async def main():
            await aclient.evaluator.submit(
                tasks=T,
                target=gym_runner,
            )
        """,
        [(2, "ES103")],
    ),
    ("non-mistake: a row call", "client.evaluator.submit(metric=em, dataset=rows)\n", []),
    (
        "non-mistake: an async row call",
        """
        async def main():
            job = await aclient.evaluator.submit(metric=em, dataset=rows, config=RunConfig())
        """,
        [],
    ),
    (
        "non-mistake: a taskset call",
        "client.evaluator.submit(tasks=T, target=gym_runner)\n",
        [],
    ),
    (
        "unknown metric/dataset values are not diagnosed",
        """
        def score(metric, dataset):
            client.evaluator.submit(metric=metric, dataset=dataset)
        """,
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es103(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es103_kind_and_span() -> None:
    line = "client.evaluator.submit(target=gym_runner)"
    (finding,) = analyse(line + "\n")
    assert finding.kind == "no-shape"
    assert finding.span.col == line.index("submit")
    assert "tasks" in finding.message
