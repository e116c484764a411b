"""The versions a walk makes live in its layer (``values/heap.py``), never in the value: a walk
that ends drops them, a branch starts from the versions before the fork, and two threads never
see each other's."""

from __future__ import annotations

import threading

from evalsubmit.analysis.values.domain import DictValue, Entry, Known, SeqValue, Value
from evalsubmit.analysis.values.store import (
    change_seq,
    forked,
    join_forks,
    sealed,
    store_entry,
    unsealed,
)


def _keys(value: DictValue) -> list[object]:
    return [entry.key.obj for entry in value.entries if isinstance(entry.key, Known)]


def _dict(**items: int) -> DictValue:
    return DictValue(tuple(Entry(Known(k), Known(v), None) for k, v in items.items()))


def test_a_sealed_walk_leaves_the_value_as_built() -> None:
    value = _dict(a=1)
    built = value.entries
    with sealed():
        store_entry(value, Known("b"), Known(2), None)
        assert _keys(value) == ["a", "b"]
        with sealed():
            store_entry(value, Known("c"), Known(3), None)
            assert _keys(value) == ["a", "b", "c"]
        assert _keys(value) == ["a", "b"]
    assert value.entries is built


def test_outside_every_walk_a_change_is_the_values_own() -> None:
    value = SeqValue(list, (Known(1),))
    change_seq(value, (Known(1), Known(2)), (None, None))
    with sealed():
        pass
    assert [item.obj for item in value.items if isinstance(item, Known)] == [1, 2]


def test_a_module_read_for_an_import_sees_the_values_as_built() -> None:
    shared = _dict(a=1)
    with sealed():
        store_entry(shared, Known("importer"), Known(1), None)
        with unsealed():  # the imported module's top level
            assert _keys(shared) == ["a"]
            store_entry(shared, Known("module"), Known(2), None)
        assert _keys(shared) == ["a", "importer"]  # the importer's own version hides it
    assert _keys(shared) == ["a", "module"]


def test_each_branch_starts_from_the_same_version_and_the_join_keeps_what_they_agree_on() -> None:
    value = _dict(a=1)
    with sealed():
        paths = []
        for key in ("b", "c"):
            with forked() as ends:
                assert _keys(value) == ["a"]
                store_entry(value, Known(key), Known(0), None)
                store_entry(value, Known("a"), Known(9), None)
            paths.append(ends)
        assert _keys(value) == ["a"]
        join_forks(paths)
        assert not value.complete  # one of two versions, never both merged
        entry = value.get("a")
        assert entry is not None and isinstance(entry.value, Known) and entry.value.obj == 9
    assert value.complete and _keys(value) == ["a"]


def test_two_threads_never_see_each_others_versions() -> None:
    shared = _dict(a=1)
    stored, read = threading.Event(), threading.Event()
    seen: dict[str, list[object]] = {}

    def writer() -> None:
        with sealed():
            store_entry(shared, Known("writer"), Known(1), None)
            stored.set()
            read.wait(5)
            seen["writer"] = _keys(shared)

    def reader() -> None:
        stored.wait(5)
        with sealed():
            seen["reader"] = _keys(shared)
        read.set()

    threads = [threading.Thread(target=writer), threading.Thread(target=reader)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == {"writer": ["a", "writer"], "reader": ["a"]}
    assert _keys(shared) == ["a"]


def test_a_value_inside_itself_is_kept_whole() -> None:
    inner = SeqValue(list, ())
    outer = _dict()
    with sealed():
        store_entry(outer, Known("self"), outer, None)
        change_seq(inner, (outer,), (None,))
        held: Value = inner.items[0]
        assert held is outer and _keys(outer) == ["self"]
    assert inner.items == () and _keys(outer) == []
