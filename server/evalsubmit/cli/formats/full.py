"""``--output-format full``: each finding with a code frame, like ruff's ``full`` format::

    src/job.py:7:5: ES102 [*] `config=` is a row-evaluation option; ...
      |
    5 |     tasks=TasksetRef("qa/smoke"),
    6 |     target=runner,
    7 |     config=RunConfig(parallelism=16),
      |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ ES102
    8 | )
      |
      = help: Remove `config=`

Two lines of context on each side; a span longer than ``MAX_SPAN_LINES`` shows its first and
last lines around a ``...`` row. Underlines are placed by display width (a tab is 4 columns, an
East Asian wide character 2, a combining mark 0), and control characters are shown as their
Unicode control pictures, so a frame is aligned and never drives the terminal.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from pathlib import Path

from evalsubmit.cli.formats import Report, fix_summary, fixes_applied
from evalsubmit.cli.formats.color import BLUE, BOLD, CYAN, SEVERITY, Paint
from evalsubmit.core.findings import Finding, Span

CONTEXT = 2
MAX_SPAN_LINES = 6
TAB_WIDTH = 4


def as_full(report: Report, *, color: bool = False) -> str:
    from evalsubmit.cli.output import text_tail  # shared with concise: summary, skips, notes

    paint = Paint(color)
    blocks = [_block(path, finding, report, paint) for path, finding in report.findings]
    tail = text_tail(
        list(report.findings),
        report.files_checked,
        list(report.notes),
        list(report.skipped),
        list(report.effects),
        extra=report.extra,
    )
    return "".join(f"{block}\n" for block in blocks) + "".join(
        f"{line}\n" for line in [*fixes_applied(report), *tail, *fix_summary(report)]
    )


def _block(path: Path, finding: Finding, report: Report, paint: Paint) -> str:
    from evalsubmit.cli.output import shown  # a hostile file name never drives the terminal

    style = SEVERITY.get(str(finding.severity), BOLD)
    marked = not report.fix_mode  # as ruff: after --fix, what could be fixed was
    mark = " [*]" if marked and finding.applicable_fix(report.unsafe_fixes) else ""
    lines = [
        f"{paint(BOLD, shown(path))}:{finding.place}: "
        f"{paint(style, finding.code)}{paint(CYAN, mark)} {shown(finding.message)}"
    ]
    if finding.cell is None:
        source = report.sources.get(path)
    else:
        source = report.cell_sources.get(path, {}).get(finding.cell)
    width = 1
    if source:
        frame_lines, width = frame(source, finding.span, finding.code, paint, style)
        lines += frame_lines
    if finding.fixes:
        title = finding.fixes[0].title
        lines.append(f"{' ' * width} {paint(BLUE, '=')} {paint(BOLD, 'help')}: {title}")
    return "\n".join(lines) + "\n"


def frame(
    source: Sequence[str], span: Span, code: str, paint: Paint, style: str = BOLD
) -> tuple[list[str], int]:
    """The frame of ``span`` in ``source`` (its lines) and the gutter's width."""
    end_line, end_col = span.end_line, span.end_col
    if end_line > span.line and end_col == 0:  # a span ending at a line's start ends before it
        end_line -= 1
        end_col = len(source[end_line - 1]) if end_line <= len(source) else 0
    count = len(source)
    if count > 1 and source[-1] == "":  # the empty "line" after a final newline
        count -= 1
    first = max(1, span.line - CONTEXT)
    last = min(max(count, span.line), end_line + CONTEXT)
    numbers = list(range(first, last + 1))
    if end_line - span.line + 1 > MAX_SPAN_LINES:  # keep the first and last lines of the span
        keep_head = span.line + MAX_SPAN_LINES // 2
        keep_tail = end_line - MAX_SPAN_LINES // 2 + 1
        numbers = [n for n in numbers if n < keep_head or n >= keep_tail]
    width = len(str(last))
    bar = paint(BLUE, "|")
    out = [f"{' ' * width} {bar}"]
    previous = None
    for number in numbers:
        if previous is not None and number != previous + 1:
            out.append(f"{paint(BLUE, '.' * width)} {bar} ...")
        previous = number
        text = source[number - 1] if number <= len(source) else ""
        shown, offsets = display(text)
        gutter = paint(BLUE, str(number).rjust(width))
        out.append(f"{gutter} {bar} {shown}".rstrip())
        if not span.line <= number <= end_line:
            continue
        start = span.col if number == span.line else len(text) - len(text.lstrip())
        stop = end_col if number == end_line else len(text)
        left = offsets[min(start, len(text))]
        right = offsets[min(max(stop, start), len(text))]
        carets = "^" * max(1, right - left)
        label = f" {code}" if number == end_line else ""
        out.append(f"{' ' * width} {bar} {' ' * left}{paint(style, carets + label)}")
    out.append(f"{' ' * width} {bar}")
    return out, width


def display(text: str) -> tuple[str, list[int]]:
    """``text`` as shown in a terminal, and the display column of each of its code points
    (one more entry: the end)."""
    shown: list[str] = []
    offsets = [0]
    column = 0
    for char in text:
        if char == "\t":
            piece = " " * (TAB_WIDTH - column % TAB_WIDTH)
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            piece = chr(0x2400 + (0x21 if ord(char) == 0x7F else ord(char)))  # control picture
        elif unicodedata.category(char) in ("Cc", "Cf", "Zl", "Zp"):
            piece = f"<U+{ord(char):04X}>"  # bidi overrides, NEL, ...: never sent raw
        else:
            piece = char
        shown.append(piece)
        column += _width(piece)
        offsets.append(column)
    return "".join(shown), offsets


def _width(piece: str) -> int:
    total = 0
    for char in piece:
        if unicodedata.combining(char):
            continue
        total += 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1
    return total
