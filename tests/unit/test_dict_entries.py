"""A dict being built finds an equal key by its hash once it lists many (a literal of thousands
of keys took time quadratic in them): the same entries, in the same order, as looking every
key up one by one."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from evalsubmit.analysis.values.dict_entries import _LOOKED_UP_ONE_BY_ONE, Entries
from evalsubmit.analysis.values.domain import Entry, Known, Unknown, Value

KEYS: list[object] = [1, 1.0, True, 0, False, "a", "b", (1, 2), (1, 2.0), None, 2, "c"]


def _one_by_one(puts: list[tuple[Value, int]]) -> list[tuple[object, object]]:
    """Python's dict, by the rule the entries follow (an equal key keeps its first spelling)."""
    listed: list[tuple[object, object]] = []
    for key, value in puts:
        obj = key.obj if isinstance(key, Known) else key
        for index, (seen, _) in enumerate(listed):
            if isinstance(key, Known) and not isinstance(seen, Unknown) and seen == obj:
                listed[index] = (seen, value)
                break
        else:
            listed.append((obj, value))
    return listed


def _spelled(entries: tuple[Entry, ...]) -> list[tuple[object, object]]:
    return [
        (entry.key.obj if isinstance(entry.key, Known) else entry.key, _value(entry.value))
        for entry in entries
    ]


def _value(value: Value) -> object:
    return value.obj if isinstance(value, Known) else value


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.tuples(st.one_of(st.sampled_from(KEYS), st.integers(3, 60)), st.integers()),
        max_size=4 * _LOOKED_UP_ONE_BY_ONE,
    )
)
def test_the_same_entries_as_looking_keys_up_one_by_one(puts: list[tuple[object, int]]) -> None:
    unknown = Unknown()
    values: list[tuple[Value, int]] = [(Known(k), v) for k, v in puts]
    values.insert(len(values) // 2, (unknown, -1))  # a key not known: listed, never looked up
    entries = Entries()
    for key, value in values:
        entries.put(key, Known(value), None)
    assert _spelled(entries.done()) == [
        (key, value) for key, value in _one_by_one([(k, v) for k, v in values])
    ]
    assert not entries.complete


def test_a_literal_of_many_keys_keeps_the_first_spelling_and_the_last_value() -> None:
    entries = Entries()
    for index in range(3 * _LOOKED_UP_ONE_BY_ONE):
        entries.put(Known(index), Known("first"), None)
    entries.put(Known(1.0), Known("again"), None)  # equal to 1: its entry, its place
    entries.put(Known(True), Known("last"), None)
    done = _spelled(entries.done())
    assert len(done) == 3 * _LOOKED_UP_ONE_BY_ONE
    assert done[1] == (1, "last") and type(done[1][0]) is int
