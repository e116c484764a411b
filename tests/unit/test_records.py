"""``@record`` (core/records.py) keeps what ``@dataclass(frozen=True)`` gave every record but the
run-time refusal of assignments, which mypy now gives: both halves are checked here."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

from evalsubmit.core.findings import Span
from evalsubmit.core.records import record


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
    )
    done = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--no-error-summary", str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    refused = [line for line in done.stdout.splitlines() if "is read-only" in line]
    assert [line.split(":")[1] for line in refused] == ["6", "7"], done.stdout
