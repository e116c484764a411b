"""``@record`` (core/records.py) keeps what ``@dataclass(frozen=True)`` gave every record but the
run-time refusal of assignments, which mypy now gives: both halves are checked here. A
``Record`` written by hand behaves as the ``@record`` it replaces (equality, hash, repr, match,
replace, pickling), and mypy refuses an assignment to its fields too."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import subprocess
import sys
from pathlib import Path
from typing import Final

import pytest

from evalsubmit.core.findings import Span
from evalsubmit.core.records import Record, record, replace


@record
class Point:
    x: int
    y: int = 0


@record(eq=False)
class Handle:
    name: str


@record(order=True)
class Version:
    major: int
    minor: int


@record(slots=False)
class Loose:
    items: tuple[int, ...] = ()


def test_equality_and_hash_are_by_fields() -> None:
    assert Point(1, 2) == Point(1, 2) and Point(1, 2) != Point(2, 1)
    assert hash(Point(1, 2)) == hash(Point(1, 2))
    assert len({Point(1, 2), Point(1, 2), Point(3)}) == 2
    assert {Span(1, 0, 1, 4): "a"}[Span(1, 0, 1, 4)] == "a"


def test_eq_false_is_identity() -> None:
    first, second = Handle("h"), Handle("h")
    assert first != second and first == first
    assert hash(first) == object.__hash__(first)


def test_order_replace_fields_and_slots() -> None:
    assert sorted([Version(1, 2), Version(1, 0), Version(0, 9)])[0] == Version(0, 9)
    assert dataclasses.replace(Point(1, 2), y=5) == Point(1, 5)
    assert [field.name for field in dataclasses.fields(Point)] == ["x", "y"]
    assert Point.__match_args__ == ("x", "y")
    assert not hasattr(Point(1), "__dict__")
    assert hasattr(Loose(), "__dict__")


def test_mypy_refuses_an_assignment_to_a_field(tmp_path: Path) -> None:
    source = tmp_path / "assigns.py"
    source.write_text(
        "from evalsubmit.core.findings import Span\n"
        "from evalsubmit.core.records import record\n"
        "@record\n"
        "class Point:\n"
        "    x: int\n"
        "Point(1).x = 2\n"
        "Span(1, 0, 1, 1).line = 3\n"
        "from tests_records_written import Written\n"
        "Written(1, 'a').name = 'b'\n"
    )
    (tmp_path / "tests_records_written.py").write_text(WRITTEN)
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary", str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    refused = [
        line
        for line in done.stdout.splitlines()
        if "is read-only" in line or "Cannot assign to final attribute" in line
    ]
    assert [line.split(":")[1] for line in refused] == ["6", "7", "9"], done.stdout


WRITTEN = """\
from __future__ import annotations

from typing import Final

from evalsubmit.core.records import Record


class Written(Record):
    __slots__ = ("name", "size")
    size: Final[int]
    name: Final[str]

    def __init__(self, size: int, name: str = "") -> None:
        self.size = size
        self.name = name
"""


class Written(Record):
    """The hand-written twin of ``Twin``: slots sorted, fields in ``__init__``'s order."""

    __slots__ = ("name", "size")
    size: Final[int]
    name: Final[str]

    def __init__(self, size: int, name: str = "") -> None:
        self.size = size
        self.name = name


@record
class Twin:
    size: int
    name: str = ""


class Opaque(Record, eq=False):
    __slots__ = ("name",)
    name: Final[str]

    def __init__(self, name: str) -> None:
        self.name = name


class Unhashable(Record, hash=False):
    __slots__ = ("items",)
    items: Final[list[int]]

    def __init__(self, items: list[int]) -> None:
        self.items = items


class Keyed(Record):
    """Its own equality (by name only), which the base leaves alone."""

    __slots__ = ("name", "note")
    name: Final[str]
    note: Final[str]

    def __init__(self, name: str, note: str) -> None:
        self.name = name
        self.note = note

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Keyed) and other.name == self.name

    def __hash__(self) -> int:
        return hash(self.name)


def test_a_written_record_is_its_dataclass_twin() -> None:
    written, twin = Written(3, "a"), Twin(3, "a")
    assert repr(written) == repr(twin).replace("Twin", "Written")
    assert Written.__match_args__ == Twin.__match_args__ == ("size", "name")
    assert hash(written) == hash(twin) == hash((3, "a"))
    assert written == Written(3, "a") and written != Written(3, "b") and written != twin
    assert (written == twin) is False and written.__eq__(twin) is NotImplemented
    assert replace(written, name="b") == Written(3, "b")
    assert replace(written) == written and replace(written) is not written
    with pytest.raises(TypeError):
        replace(written, colour="red")
    assert not hasattr(written, "__dict__")
    assert pickle.loads(pickle.dumps(written)) == written
    assert copy.deepcopy(written) == written
    match written:
        case Written(size, name):
            assert (size, name) == (3, "a")
    assert len({Written(1), Written(1), Written(2)}) == 2


def test_eq_false_and_hash_false_are_as_a_dataclass() -> None:
    assert Opaque("x") != Opaque("x")  # eq=False: identity, as a dataclass's
    assert Unhashable([1]) == Unhashable([1])
    with pytest.raises(TypeError):
        hash(Unhashable([1]))
    assert repr(Unhashable([1])) == "Unhashable(items=[1])"


def test_a_written_record_keeps_its_own_equality() -> None:
    assert Keyed("a", "x") == Keyed("a", "y")
    assert hash(Keyed("a", "x")) == hash("a")
    assert repr(Keyed("a", "x")) == "Keyed(name='a', note='x')"


def test_the_fields_must_be_slots() -> None:
    with pytest.raises(TypeError, match="parameters of __init__"):

        class Stray(Record):
            __slots__ = ("name",)

            def __init__(self, name: str, size: int) -> None:
                self.name = name


def test_span_keeps_its_order_and_fields() -> None:
    spans = [Span(2, 0, 2, 1), Span(1, 5, 1, 6), Span(1, 5, 1, 5)]
    assert sorted(spans) == [Span(1, 5, 1, 5), Span(1, 5, 1, 6), Span(2, 0, 2, 1)]
    assert Span(1, 0, 1, 1) <= Span(1, 0, 1, 1) < Span(1, 0, 1, 2)
    assert Span(1, 0, 1, 2) >= Span(1, 0, 1, 2) > Span(1, 0, 1, 1)
    assert Span.__match_args__ == ("line", "col", "end_line", "end_col")
    assert repr(Span(1, 2, 3, 4)) == "Span(line=1, col=2, end_line=3, end_col=4)"
