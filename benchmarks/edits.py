"""The edits the benchmarks send: random in-line edits, and a typing trace that shifts lines.

``make_edits`` gives pairs of an insertion and its removal within one line (a digit in a value,
a taskset name, ``z = 1`` on a blank line): no later line moves. ``typing_trace`` is what a user
does between those (issue 26): at the top level, inside a function body and inside a class
body, press Enter, type a statement character by character, paste a 20-line block, delete it,
cut the typed line and join the two lines with Backspace. Every later line shifts on each of
those but the typing; the trace ends on the text it started from.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass

TRACE_KINDS = ("enter", "type", "paste", "delete-block", "cut-line", "join")
"""The kinds of edit of the typing trace, in the order of one place's trace."""

TRACE_PLACES = ("top level", "function body", "class body")


@dataclass(frozen=True)
class Edit:
    """Replace from (``line``, ``start``) to (``end_line``, ``end``) with ``text`` (0-based;
    ``end_line`` defaults to ``line``; ASCII corpus, so UTF-16 units are characters).
    ``where`` names the edit's kind (``inside``, ``between``, or ``place:kind`` of a trace)."""

    line: int
    start: int
    end: int
    text: str
    where: str
    end_line: int | None = None

    @property
    def last_line(self) -> int:
        return self.line if self.end_line is None else self.end_line

    @property
    def kind(self) -> str:
        return self.where.rpartition(":")[2]

    def apply(self, lines: list[str]) -> None:
        head = lines[self.line][: self.start]
        tail = lines[self.last_line][self.end :]
        lines[self.line : self.last_line + 1] = (head + self.text + tail).split("\n")


INSIDE = [
    (re.compile(r"concurrency=(\d+)"), "7"),  # 8 -> 87
    (re.compile(r"parallelism=(\d+)"), "2"),
    (re.compile(r'TasksetRef\("qa/([a-z-]+)"\)'), "ab"),
    (re.compile(r"max_turns\": (\d+)"), "1"),
]


def make_edits(text: str, count: int, seed: int) -> list[Edit]:
    """``count`` edits of a few characters: pairs of an insertion and its removal, two thirds
    inside a call (a digit, a taskset name) and one third between calls (``z = 1`` on a blank
    line), spread over the file."""
    r = random.Random(seed)
    lines = text.split("\n")
    inside: list[tuple[int, int, str]] = []
    between: list[int] = []
    for n, line in enumerate(lines):
        for pattern, insert in INSIDE:
            for m in pattern.finditer(line):
                inside.append((n, m.end(1), insert))
        if not line.strip() and 0 < n < len(lines) - 1 and not lines[n - 1].startswith(" "):
            between.append(n)
    edits: list[Edit] = []
    pairs = (count + 1) // 2
    lines_used: set[int] = set()
    for k in range(pairs):
        if k % 3 == 2 and between:
            n = r.choice(between)
            if n in lines_used:
                continue
            add = Edit(n, 0, 0, "z = 1", "between")
            undo = Edit(n, 0, 5, "", "between")
        else:
            n, col, insert = r.choice(inside)
            add = Edit(n, col, col, insert, "inside")
            undo = Edit(n, col, col + len(insert), "", "inside")
        lines_used.add(n)
        edits += [add, undo]
    return edits[:count]


STATEMENT = "retries = max(1, len(names))"
"""Typed character by character: a statement a user adds while editing."""


def _pasted(indent: str, place: str) -> list[str]:
    """20 lines of ordinary code at ``indent`` (a function at the top level, a method in a
    class, statements in a function body), as a user pastes from elsewhere."""
    if place == "function body":
        body = [
            "attempts = []",
            "for attempt in range(3):",
            "    label = f'attempt-{attempt}'",
            "    if attempt % 2:",
            "        attempts.append(label.upper())",
            "    else:",
            "        attempts.append(label)",
            "summary = {'attempts': attempts, 'count': len(attempts)}",
            "if not attempts:",
            "    summary['empty'] = True",
            "elapsed = sum(len(a) for a in attempts)",
            "ratio = elapsed / max(1, len(attempts))",
            "notes = [a for a in attempts if a.endswith('1')]",
            "for note in notes:",
            "    summary.setdefault('notes', []).append(note)",
            "limits = {'max': 10, 'min': 1}",
            "bounded = min(limits['max'], max(limits['min'], len(notes)))",
            "summary['bounded'] = bounded",
            "summary['ratio'] = round(ratio, 2)",
            "print(summary)",
        ]
        return [indent + line for line in body]
    name = "pasted_report" if place == "top level" else "pasted_method"
    params = "(values: list[str]) -> dict[str, int]" if place == "top level" else "(self) -> int"
    body = [
        f"def {name}{params}:",
        '    """Counts per key, pasted from a utility module."""',
        "    counts: dict[str, int] = {}",
        "    for value in ['a=1', 'b=22', 'c=333']:",
        "        key, _, rest = value.partition('=')",
        "        if not key:",
        "            continue",
        "        counts[key] = counts.get(key, 0) + len(rest)",
        "    total = sum(counts.values())",
        "    if total > 100:",
        "        counts['overflow'] = total - 100",
        "    largest = max(counts, key=counts.__getitem__)",
        "    counts['largest'] = len(largest)",
        "    ordered = sorted(counts.items())",
        "    for key, count in ordered:",
        "        if count < 0:",
        "            raise ValueError(key)",
        "    checked = {key: count for key, count in ordered}",
        "    checked['keys'] = len(ordered)",
        "    return checked" if place == "top level" else "    return len(checked)",
    ]
    return [indent + line if line else line for line in body]


def _anchors(lines: list[str]) -> dict[str, tuple[int, str]]:
    """Per place, the line whose end the trace starts at and the indent of the new line:
    a blank line between two top-level definitions near the middle, a statement line of a
    function body, a blank line between two methods of a class."""
    middle = len(lines) // 2
    order = sorted(range(1, len(lines) - 1), key=lambda n: (abs(n - middle), n))
    found: dict[str, tuple[int, str]] = {}
    in_class = False
    class_lines: set[int] = set()
    for n, line in enumerate(lines):
        if line.startswith("class "):
            in_class = True
        elif line and not line.startswith((" ", "#")):
            in_class = False
        if in_class:
            class_lines.add(n)
    for n in order:
        line, after = lines[n], lines[n + 1]
        if "top level" not in found and not line and after.startswith("def "):
            found["top level"] = (n - 1, "")
        elif (
            "function body" not in found
            and n not in class_lines
            and re.match(r"    [a-z_]+ = ", line)
            and after.startswith("    ")
        ):
            found["function body"] = (n, "    ")
        elif (
            "class body" not in found
            and n in class_lines
            and not line
            and after.startswith("    def ")
        ):
            found["class body"] = (n - 1, "    ")
        if len(found) == len(TRACE_PLACES):
            break
    missing = set(TRACE_PLACES) - set(found)
    if missing:
        raise ValueError(f"the file has no place for the typing trace: {sorted(missing)}")
    return found


def typing_trace(text: str) -> list[Edit]:
    """The typing trace of each place (``TRACE_PLACES``), one after the other; each place's
    edits take the text back to where they started, so the trace ends on ``text``."""
    lines = text.split("\n")
    edits: list[Edit] = []
    for place, (line, indent) in _anchors(lines).items():
        end = len(lines[line])
        new = line + 1
        col = len(indent)
        edits.append(Edit(line, end, end, "\n" + indent, f"{place}:enter"))
        for k, char in enumerate(STATEMENT):
            edits.append(Edit(new, col + k, col + k, char, f"{place}:type"))
        typed = col + len(STATEMENT)
        block = _pasted(indent, place)
        edits.append(Edit(new, typed, typed, "\n" + "\n".join(block), f"{place}:paste"))
        last = new + len(block)
        edits.append(Edit(new, typed, len(block[-1]), "", f"{place}:delete-block", last))
        edits.append(Edit(new, col, typed, "", f"{place}:cut-line"))
        edits.append(Edit(line, end, col, "", f"{place}:join", end_line=new))
    return edits
