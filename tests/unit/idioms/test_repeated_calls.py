"""Calls of one helper with the same arguments are separate calls. Each call of
``make_config()`` builds a config of its own: a field set on one is not set on the other, and
an argument changed between two calls reaches the second only. (A reuse of one call's walk for
the next, keyed by the callee and its argument objects, would break both: the guard below
checks that these snippets catch such a memo.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from idiom_support import check, expected, reported

from evalsubmit.analysis.interp import calls
from evalsubmit.analysis.values.domain import Value
from evalsubmit.analysis.values.objects import FunctionValue

A_FIELD_SET_ON_ANOTHER_CALLS_CONFIG = """
def make_config(concurrency=8):
    return GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", concurrency=concurrency)

def make_runner():
    return GymAgentTaskRunner(config=make_config())

def nightly():
    first = make_config()
    second = make_config()
    first.concurrency = 0
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=second))

def weekly():
    runner = make_runner()
    other = make_runner()
    runner.config.concurrency = 0
    client.evaluator.submit(tasks=T, target=other)
"""

AN_ARGUMENT_CHANGED_BETWEEN_TWO_CALLS = """
def make_config(env):
    return GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="r", env_vars=env)

def nightly():
    env = {"MODE": "eval"}
    good = make_config(env)
    env["RETRIES"] = 3  # expect: ES109
    bad = make_config(env)
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=good))
    client.evaluator.submit(tasks=T, target=GymAgentTaskRunner(config=bad))
"""

SNIPPETS = [A_FIELD_SET_ON_ANOTHER_CALLS_CONFIG, AN_ARGUMENT_CHANGED_BETWEEN_TWO_CALLS]


@pytest.mark.parametrize("snippet", SNIPPETS, ids=["field set on another", "argument changed"])
def test_each_call_builds_its_own_config(snippet: str) -> None:
    check(snippet)


@pytest.fixture
def naive_call_memo(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Calls of a function reuse the value of its first call with the same argument objects."""
    walked = calls.evaluate_call
    memo: dict[tuple[Any, ...], tuple[dict[str, Value], Value]] = {}

    def reused(
        interp: Any, function: FunctionValue, values: dict[str, Value], **kwargs: Any
    ) -> Value:
        key = (id(function.node), id(function.closure), *sorted(map(id, values.values())))
        if key not in memo:  # the arguments are kept with it: their ids stay theirs
            memo[key] = (values, walked(interp, function, values, **kwargs))
        return memo[key][1]

    monkeypatch.setattr(calls, "evaluate_call", reused)
    yield


@pytest.mark.parametrize("snippet", SNIPPETS, ids=["field set on another", "argument changed"])
def test_a_memo_of_calls_by_their_argument_objects_fails_them(
    snippet: str, naive_call_memo: None
) -> None:
    assert reported(snippet) != expected(snippet)
