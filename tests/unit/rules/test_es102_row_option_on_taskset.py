"""ES102 row-option-on-taskset: a taskset call that also passes `config`, `field_mapping`,
`prompt_template` or `metric_bundle_packager` (reference §4.1.3); one finding per keyword."""

from __future__ import annotations

import pytest
from rule_support import Result, analyse, assert_fix, results

CASES: list[tuple[str, str, Result]] = [
    (
        "M1: RunConfig on a taskset run, anchored on the keyword",
        """
        job = client.evaluator.submit(
            tasks=TasksetRef("qa/mcqa-nightly"),
            target=gym_runner,
            config=RunConfig(parallelism=16),
        )
        """,
        [(4, "ES102")],
    ),
    (
        "M3: local AgentEvalRunConfig passed as config",
        """
        local_cfg = AgentEvalRunConfig(parallelism=2, fail_fast=True)
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=gym_runner,
                                config=local_cfg)
        """,
        [(3, "ES102")],
    ),
    (
        "field_mapping",
        "client.evaluator.submit(tasks=T, target=gym_runner, field_mapping={'q': 'prompt'})\n",
        [(1, "ES102")],
    ),
    (
        "prompt_template",
        "client.evaluator.submit(tasks=T, target=gym_runner, prompt_template='Q: {{item.q}}')\n",
        [(1, "ES102")],
    ),
    (
        "metric_bundle_packager",
        "client.evaluator.submit(tasks=T, target=gym_runner, metric_bundle_packager='docker')\n",
        [(1, "ES102")],
    ),
    (
        "outcome table: prompt_template and config, one finding each",
        """
        client.evaluator.submit(
            tasks=T,
            target=gym_runner,
            prompt_template="x",
            config=RunConfig(),
        )
        """,
        [(4, "ES102"), (5, "ES102")],
    ),
    (
        "two options on one line",
        "client.evaluator.submit(tasks=T, target=gym_runner, config=RunConfig(), "
        "prompt_template='x')\n",
        [(1, "ES102"), (1, "ES102")],
    ),
    (
        "all four",
        """
        client.evaluator.submit(
            tasks=T, target=gym_runner,
            config=RunConfig(),
            field_mapping={"a": "b"},
            prompt_template="x",
            metric_bundle_packager="docker",
        )
        """,
        [(3, "ES102"), (4, "ES102"), (5, "ES102"), (6, "ES102")],
    ),
    (
        "non-mistake: config=None on a taskset call",
        "client.evaluator.submit(tasks=T, target=gym_runner, config=None)\n",
        [],
    ),
    (
        "only the non-None option is reported",
        """
        client.evaluator.submit(
            tasks=T, target=gym_runner,
            config=None,
            prompt_template="x",
        )
        """,
        [(4, "ES102")],
    ),
    (
        "a name bound to None is not supplied",
        """
        opts = None
        client.evaluator.submit(tasks=T, target=gym_runner, config=opts)
        """,
        [],
    ),
    (
        "a plain-string taskset works the same",
        "client.evaluator.submit(tasks='qa/smoke#v3', target=gym_runner, config=RunConfig())\n",
        [(1, "ES102")],
    ),
    (
        "a non-runner target is reported first, alone",
        "client.evaluator.submit(tasks=T, target=cfg, config=RunConfig())\n",
        [(1, "ES104")],
    ),
    (
        "a missing target is reported first, alone",
        "client.evaluator.submit(tasks=T, config=RunConfig())\n",
        [(1, "ES104")],
    ),
    (
        "an unsubmittable runner is not reported when the option check fails",
        "client.evaluator.submit(tasks=T, target=harbor, config=RunConfig())\n",
        [(1, "ES102")],
    ),
    (
        "a malformed plain-string taskset is not reported when the option check fails",
        "client.evaluator.submit(tasks='a/b/c', target=gym_runner, config=RunConfig())\n",
        [(1, "ES102")],
    ),
    (
        "row calls take these options",
        """
        from nemo_evaluator_sdk import FieldMapping
        client.evaluator.submit(metric=em, dataset=rows, config=RunConfig(parallelism=4),
                                field_mapping=FieldMapping(reference="a"))
        """,
        [],
    ),
    (
        "async: no-shape, not row options",
        """
        async def main():
            await aclient.evaluator.submit(tasks=T, target=gym_runner, config=RunConfig())
        """,
        [(2, "ES103")],
    ),
    (
        "a value passed in by the caller is unknown: not diagnosed",
        """
        def go(options):
            client.evaluator.submit(tasks=T, target=gym_runner, config=options)
        """,
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es102(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es102_kind_and_span() -> None:
    line = "client.evaluator.submit(tasks=T, target=gym_runner, prompt_template='x')"
    (finding,) = analyse(line + "\n")
    assert finding.kind == "row-option-on-taskset"
    assert "prompt_template" in finding.message
    assert finding.span.col == line.index("prompt_template")


FIXES = [
    (
        "drop config, single line",
        "client.evaluator.submit(tasks=T, target=gym_runner, config=RunConfig(parallelism=16))\n",
        "client.evaluator.submit(tasks=T, target=gym_runner)\n",
    ),
    (
        "drop config, multi-line (M1)",
        """
        job = client.evaluator.submit(
            tasks=TasksetRef("qa/mcqa-nightly"),
            target=gym_runner,
            config=RunConfig(parallelism=16),
        )
        """,
        """
        job = client.evaluator.submit(
            tasks=TasksetRef("qa/mcqa-nightly"),
            target=gym_runner,
        )
        """,
    ),
    (
        "drop an option written first",
        "client.evaluator.submit(prompt_template='x', tasks=T, target=gym_runner)\n",
        "client.evaluator.submit(tasks=T, target=gym_runner)\n",
    ),
    (
        "drop every row-only option at once",
        """
        client.evaluator.submit(
            tasks=T,
            target=gym_runner,
            prompt_template="x",
            config=RunConfig(),
        )
        """,
        """
        client.evaluator.submit(
            tasks=T,
            target=gym_runner,
        )
        """,
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in FIXES], ids=[c[0] for c in FIXES])
def test_es102_fix_drops_row_only_options(source: str, expected: str) -> None:
    assert_fix(source, "ES102", expected)
