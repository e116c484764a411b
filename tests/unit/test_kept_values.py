"""Facts keep values as they were when recorded (``store.kept``): a change made afterwards, or
the undo of a sealed walk, never reaches what a fact holds."""

from __future__ import annotations

import inspect

from evalsubmit.analysis.values.dict_entries import Entries
from evalsubmit.analysis.values.domain import DictValue, Instance, Known, SeqValue
from evalsubmit.analysis.values.objects import CallArgs, ClassRef
from evalsubmit.analysis.values.store import (
    change_seq,
    kept,
    kept_value,
    sealed,
    store_entry,
    store_keyword,
    unchanged_since,
)
from evalsubmit.sdk.names import GYM_CONFIG


def _dict(**items: object) -> DictValue:
    entries = Entries()
    for key, value in items.items():
        entries.put(Known(key), value if isinstance(value, DictValue) else Known(value), None)
    return entries.dict(None)


def _config(**keywords: object) -> Instance:
    args = CallArgs(
        keywords={k: v if isinstance(v, DictValue) else Known(v) for k, v in keywords.items()}
    )
    return Instance(ClassRef(GYM_CONFIG), args, None, constructed=kept(args))


def test_a_kept_dict_does_not_see_later_stores_nor_their_undo() -> None:
    inner = _dict(depth=1)
    outer = _dict(name="a", inner=inner)
    args = CallArgs(keywords={"hydra_params": outer})
    then = kept(args)
    with sealed():
        store_entry(inner, Known("late"), Known(2), None)
        store_entry(outer, Known("later"), Known(3), None)
        now = kept(args)
    held = then.keywords["hydra_params"]
    assert isinstance(held, DictValue)
    assert [entry.key.obj for entry in held.entries] == ["name", "inner"]  # type: ignore[union-attr]
    nested = held.entries[1].value
    assert isinstance(nested, DictValue) and nested is not inner and len(nested.entries) == 1
    changed = now.keywords["hydra_params"]
    assert isinstance(changed, DictValue) and len(changed.entries) == 3
    assert len(outer.entries) == 2  # the sealed walk's changes are undone; the copies keep theirs


def test_a_container_inside_itself_is_kept_as_one() -> None:
    loop = _dict(a=1)
    store_entry(loop, Known("self"), loop, None)
    copy = kept_value(loop)
    assert isinstance(copy, DictValue) and copy is not loop
    assert copy.entries[1].value is copy


def test_a_config_set_after_construction_differs_from_its_construction() -> None:
    config = _config(agent="a", env_vars=_dict(MODE="x"))
    assert config.constructed is not None
    assert unchanged_since(config.args, config.constructed)
    runner = Instance(ClassRef("GymAgentTaskRunner"), CallArgs(keywords={"config": config}))
    built = kept_value(runner)
    store_keyword(config, "num_repeats", Known(0), None)
    assert not unchanged_since(config.args, config.constructed)
    assert "num_repeats" not in config.constructed.keywords
    assert isinstance(built, Instance)
    held = built.args.keywords["config"]
    assert isinstance(held, Instance) and "num_repeats" not in held.args.keywords
    env_vars = config.args.keywords["env_vars"]
    assert isinstance(env_vars, DictValue)
    store_entry(env_vars, Known("EXTRA"), Known("y"), None)
    again = _config(agent="a", env_vars=_dict(MODE="x"))
    assert again.constructed is not None
    env = again.args.keywords["env_vars"]
    assert isinstance(env, DictValue)
    store_entry(env, Known("EXTRA"), Known("y"), None)
    assert not unchanged_since(again.args, again.constructed)


def test_a_list_kept_keeps_its_items() -> None:
    items = SeqValue(list, (Known(1),), None, (None,))
    args = CallArgs(keywords={"hydra_params": _dict(), "x": items})
    then = kept(args)
    assert unchanged_since(args, then)
    change_seq(items, (Known(1), Known(2)), (None, None))
    assert not unchanged_since(args, then)
    held = then.keywords["x"]
    assert isinstance(held, SeqValue) and len(held.items) == 1


def test_a_nested_container_kept_unchanged_is_seen_unchanged() -> None:
    seeds = SeqValue(list, (Known(1), Known(2)), None, (None, None))
    params = Entries()
    params.put(Known("seeds"), seeds, None)
    hydra = params.dict(None)
    store_entry(hydra, Known("self"), hydra, None)  # and a cycle
    args = CallArgs(keywords={"hydra_params": hydra})
    then = kept(args)
    assert then.keywords["hydra_params"] is not hydra
    assert unchanged_since(args, then)
    change_seq(seeds, (Known(1),), (None,))
    assert not unchanged_since(args, then)


def test_a_kept_instance_carries_every_field() -> None:
    # Instance.copy names each field: a new one must be added there too
    assert list(inspect.signature(Instance).parameters) == [
        "ref",
        "args",
        "origin",
        "fields",
        "attributes",
        "maybe_none",
        "generic",
        "validated",
        "constructed",
    ]
    fields = DictValue()
    config = Instance(
        ClassRef(GYM_CONFIG),
        CallArgs(keywords={"agent": Known("a")}),
        None,
        fields,
        {"x": Known(1)},
        True,
        True,
        False,
        CallArgs(),
    )
    copy = kept_value(config)
    assert isinstance(copy, Instance) and copy is not config
    assert {name.lstrip("_") for name in Instance.__slots__} - {"layered"} == set(
        inspect.signature(Instance).parameters
    )
    for name in inspect.signature(Instance).parameters:
        if name != "args":
            assert getattr(copy, name) is getattr(config, name), name
