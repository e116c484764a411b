"""ES104 non-runner-target: a sync taskset call whose `target` is missing, `None` or not an
AgentTaskRunner (reference §4.1.2, §4.3)."""

from __future__ import annotations

import pytest
from rule_support import Result, analyse, results

CASES: list[tuple[str, str, Result]] = [
    (
        "M4: the wire spec instead of the runner, anchored on target=",
        """
        spec_target = GymRunnerTarget(agent="simple_agent", agent_config="a.yaml",
                                      resources_server="mcqa")
        client.evaluator.submit(tasks=TasksetRef("qa/smoke"),
                                target=spec_target)
        """,
        [(4, "ES104")],
    ),
    (
        "the config instead of the runner",
        "client.evaluator.submit(tasks=T, target=cfg)\n",
        [(1, "ES104")],
    ),
    (
        "an inline GymRuntimeConfig",
        """
        client.evaluator.submit(
            tasks=T,
            target=GymRuntimeConfig(agent="a", agent_config="a.yaml", resources_server="m"),
        )
        """,
        [(3, "ES104")],
    ),
    ("missing target: the submit line", "client.evaluator.submit(tasks=T)\n", [(1, "ES104")]),
    (
        "missing target, multi-line: the submit line",
        """
        client.evaluator.submit(
            tasks=T,
        )
        """,
        [(1, "ES104")],
    ),
    ("target=None", "client.evaluator.submit(tasks=T, target=None)\n", [(1, "ES104")]),
    (
        "a Model",
        """
        client.evaluator.submit(
            tasks=T,
            target=Model(url="http://nim:8000/v1", name="meta/llama-3.1-8b-instruct"),
        )
        """,
        [(3, "ES104")],
    ),
    ("a dict", "client.evaluator.submit(tasks=T, target={'kind': 'gym'})\n", [(1, "ES104")]),
    ("a string", "client.evaluator.submit(tasks=T, target='simple_agent')\n", [(1, "ES104")]),
    (
        "a user class with only run_tasks is not a runner",
        """
        class HalfRunner:
            async def run_tasks(self, tasks, config=None):
                return []
        client.evaluator.submit(tasks=T, target=HalfRunner())
        """,
        [(4, "ES104")],
    ),
    (
        "a plain-string taskset: the target is still checked",
        "client.evaluator.submit(tasks='qa/smoke', target=cfg)\n",
        [(1, "ES104")],
    ),
    (
        "a malformed plain-string taskset is not reported on top",
        "client.evaluator.submit(tasks='a/b/c', target=cfg)\n",
        [(1, "ES104")],
    ),
    (
        "non-mistake: a Gym runner",
        "client.evaluator.submit(tasks=T, target=gym_runner)\n",
        [],
    ),
    (
        "an unknown target (a parameter) is not diagnosed",
        """
        def go(target):
            client.evaluator.submit(tasks=T, target=target)
        """,
        [],
    ),
    (
        "a row call may target a Model",
        """
        llama = Model(url="http://nim:8000/v1", name="meta/llama-3.1-8b-instruct")
        client.evaluator.submit(metric=em, dataset=rows, target=llama,
                                config=RunConfigOnlineModel(), prompt_template="{{item.a}}")
        """,
        [],
    ),
]


@pytest.mark.parametrize(("source", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_es104(source: str, expected: Result) -> None:
    assert results(source) == expected


def test_es104_kind_and_message() -> None:
    line = "client.evaluator.submit(tasks=T, target=cfg)"
    (finding,) = analyse(line + "\n")
    assert finding.kind == "non-runner-target"
    assert "GymRuntimeConfig" in finding.message
    assert finding.span.col == line.index("target")
