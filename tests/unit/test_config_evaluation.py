"""A config's evaluation follows the values as they are when it is asked for: after a change in
place or a sealed walk's restore, it reports what the code has now (a stale evaluation would
report a value the code replaced). Nothing is memoised across asks, so each asker gets its own."""

from __future__ import annotations

from evalsubmit.analysis.target.gym_config import evaluate_config
from evalsubmit.analysis.values.domain import DictValue, Instance, Known
from evalsubmit.analysis.values.objects import CallArgs, ClassRef
from evalsubmit.analysis.values.store import sealed, store_entry, store_keyword
from evalsubmit.sdk import names as sdk

REQUIRED = {"agent": Known("a"), "agent_config": Known("c"), "resources_server": Known("r")}


def _args(**keywords: object) -> CallArgs:
    return CallArgs(keywords={**REQUIRED, **{k: Known(v) for k, v in keywords.items()}})


def test_asked_twice_with_nothing_changed_gives_the_same_answer_to_each_asker() -> None:
    args = _args(concurrency=0)
    first = evaluate_config(args, None)
    second = evaluate_config(args, None)
    assert second is not first  # an asker that adds to its answer changes no other's
    assert [issue.pydantic_type for issue in first.issues] == ["greater_than_equal"]
    assert [issue.pydantic_type for issue in second.issues] == ["greater_than_equal"]
    assert second.values.keys() == first.values.keys()


def test_changed_in_place_is_evaluated_again() -> None:
    config = Instance(ClassRef(sdk.GYM_CONFIG), _args(concurrency=0))
    assert evaluate_config(config.args, None).issues
    store_keyword(config, "concurrency", Known(3), None)  # ``cfg.concurrency = 3``
    assert evaluate_config(config.args, None).issues == []


def test_a_nested_container_changed_in_place_is_evaluated_again() -> None:
    env = DictValue()
    store_entry(env, Known("HF_HOME"), Known("/hf"), None)
    args = CallArgs(keywords={**REQUIRED, "env_vars": env})
    assert evaluate_config(args, None).issues == []
    store_entry(env, Known("CUDA_VISIBLE_DEVICES"), Known(0), None)
    assert evaluate_config(args, None).issues


def test_restored_by_a_sealed_walk_is_evaluated_again() -> None:
    env = DictValue()
    store_entry(env, Known("HF_HOME"), Known("/hf"), None)
    args = CallArgs(keywords={**REQUIRED, "env_vars": env})
    with sealed():
        store_entry(env, Known("CUDA_VISIBLE_DEVICES"), Known(0), None)
        assert evaluate_config(args, None).issues
    assert evaluate_config(args, None).issues == []
