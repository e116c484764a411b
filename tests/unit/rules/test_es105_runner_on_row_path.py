"""ES105 runner-on-row-path: a row call (both `metric` and `dataset`) whose `target` is an agent
runner (reference §4.2.6); sync and async."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from rule_support import HEADER_LINES, Result, analyse, fixed_sources, results, source_of

from evalsubmit.analysis import AnalysisOptions, Project, analyze_source

CASES: list[tuple[str, str, Result]] = [
    (
        "M5: a runner on the row path, anchored on target=",
        """
        client.evaluator.submit(metric=em, dataset=rows,
                                target=gym_runner)
        """,
        [(2, "ES105")],
    ),
    (
        "single line",
        "client.evaluator.submit(metric=em, dataset=rows, target=gym_runner)\n",
        [(1, "ES105")],
    ),
    (
        "any runner counts: Harbor",
        "client.evaluator.submit(metric=em, dataset=rows, target=harbor)\n",
        [(1, "ES105")],
    ),
    (
        "any runner counts: a callable runner",
        """
        async def agent(task):
            return "42"
        client.evaluator.submit(metric=em, dataset=rows, target=CallableAgentTaskRunner(agent))
        """,
        [(3, "ES105")],
    ),
    (
        "a user class with both protocol methods",
        """
        class EchoRunner:
            async def run_tasks(self, tasks, config=None):
                return []
            def runner_info(self):
                return {}
        client.evaluator.submit(metric=em, dataset=rows, target=EchoRunner())
        """,
        [(6, "ES105")],
    ),
    (
        "the runner class itself counts as a runner",
        "client.evaluator.submit(metric=em, dataset=rows, target=GymAgentTaskRunner)\n",
        [(1, "ES105")],
    ),
    (
        "a user class with only run_tasks is not a runner",
        """
        class HalfRunner:
            async def run_tasks(self, tasks, config=None):
                return []
        client.evaluator.submit(metric=em, dataset=rows, target=HalfRunner())
        """,
        [],
    ),
    (
        "async row call with a runner",
        """
        async def main():
            await aclient.evaluator.submit(metric=em, dataset=rows,
                                           target=gym_runner)
        """,
        [(3, "ES105")],
    ),
    (
        "a runner with bad hydra_params: only the shape problem",
        """
        bad = GymAgentTaskRunner(config=GymRuntimeConfig(
            agent="a", agent_config="a.yaml", resources_server="m",
            hydra_params={"hook": print}))
        client.evaluator.submit(metric=em, dataset=rows, target=bad)
        """,
        [(4, "ES105")],
    ),
    (
        "without dataset the call fails earlier (no-shape)",
        "client.evaluator.submit(metric=em, target=gym_runner)\n",
        [(1, "ES103")],
    ),
    (
        "non-mistake: a Model target",
        """
        llama = Model(url="http://nim:8000/v1", name="meta/llama-3.1-8b-instruct")
        client.evaluator.submit(metric=em, dataset=rows, target=llama,
                                config=RunConfigOnlineModel(), prompt_template="{{item.a}}")
        """,
        [],
    ),
    (
        "non-mistake: target=None",
        "client.evaluator.submit(metric=em, dataset=rows, target=None)\n",
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es105(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es105_kind_and_span() -> None:
    line = "client.evaluator.submit(metric=em, dataset=rows, target=gym_runner)"
    (finding,) = analyse(line + "\n")
    assert finding.kind == "runner-on-row-path"
    assert finding.span.col == line.index("target")
    assert "GymAgentTaskRunner" in finding.message


def _submit_keywords(source: str) -> list[set[str]]:
    calls = [
        node
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and node.lineno > HEADER_LINES
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "submit"
    ]
    return [{k.arg for k in call.keywords if k.arg} for call in calls]


@pytest.mark.parametrize(
    "source",
    [
        "client.evaluator.submit(metric=em, dataset=rows, target=gym_runner)\n",
        """
        job = client.evaluator.submit(
            metric=em,
            dataset=rows,
            target=gym_runner,
        )
        """,
        "client.evaluator.submit(target=gym_runner, dataset=rows, metric=em)\n",
    ],
    ids=["single-line", "multi-line", "target-first"],
)
def test_es105_fix_uses_tasks_instead_of_metric_and_dataset(source: str) -> None:
    # without a default-taskset there is no fix: a placeholder taskset would be an ES108
    assert fixed_sources(source, "ES105") == []
    candidates = fixed_sources(source, "ES105", FILLED)
    assert candidates, "no fix offered"
    good = [text for text in candidates if _submit_keywords(text) == [{"tasks", "target"}]]
    assert good, candidates
    assert 'tasks="qa/smoke"' in good[0]
    again = analyze_source(good[0], project=Project())
    assert [f.code for f in again.findings] == []  # not ES108 either: nothing introduced


FILLED = AnalysisOptions(default_taskset="qa/smoke")


def test_es105_fix_removes_the_row_only_options_too() -> None:
    """A taskset run refuses `config=`: the fix that makes the call one removes it too."""
    source = (
        "client.evaluator.submit(metric=em, dataset=rows, target=gym_runner, "
        "config=RunConfig(parallelism=4))\n"
    )
    (fixed,) = fixed_sources(source, "ES105", FILLED)
    assert _submit_keywords(fixed) == [{"tasks", "target"}]
    assert [f.code for f in analyze_source(fixed, project=Project()).findings] == []


def test_es105_placeholder_fix_is_only_for_an_editor_and_never_applied() -> None:
    """With ``placeholders`` (the editor) the fix is kept with its placeholder, for a snippet;
    fix-all and ``--fix --unsafe-fixes`` never apply it."""
    source = source_of("client.evaluator.submit(metric=em, dataset=rows, target=gym_runner)\n")
    options = AnalysisOptions(placeholders=True)
    report = analyze_source(source, path=Path("snippet.py"), project=Project(), options=options)
    (finding,) = [f for f in report.findings if f.code == "ES105"]
    (fix,) = finding.fixes
    assert fix.placeholder is not None and fix.placeholder.setting == "default-taskset"
    assert any(fix.placeholder.text in edit.new_text for edit in fix.edits)
    assert finding.applicable_fix(unsafe=True) is None
