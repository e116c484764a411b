"""The one way a string that is not ours enters a hover's markdown: as literal text.

Workspace names, URLs, taskset references, runner names, suppression codes and messages that
quote the user's code can hold backticks, ``](``, ``![``, ``<img ...>`` or line breaks. Written
into markdown as they are, they close the surrounding code span and become live links or images
that the editor fetches as soon as the hover shows. Inside a code span or a fenced code block
(CommonMark 0.31, sections 6.1 and 4.5) nothing is markup: no emphasis, link, image, autolink,
entity or HTML, provided the delimiters are longer than any backtick run the text holds.
"""

from __future__ import annotations

import re

LINE_BREAK_SHOWN = "⏎"
"""What a line break of the text shows as inside a code span (a block-level line break there
could start a heading, a list or an HTML block before the span is ever read)."""

_BACKTICK_RUNS = re.compile(r"`+")
_LINE_BREAKS = re.compile(r"\r\n|\r|\n")


def _longest_backtick_run(text: str) -> int:
    return max((len(run) for run in _BACKTICK_RUNS.findall(text)), default=0)


def code_span(text: str) -> str:
    """``text`` as an inline code span that shows it literally, on one line.

    The fence is one backtick longer than the longest run inside, so no run can close it; a
    space pads each side, which CommonMark strips again, so that text beginning or ending with
    a backtick or a space keeps it."""
    flat = _LINE_BREAKS.sub(f" {LINE_BREAK_SHOWN} ", text)
    fence = "`" * (_longest_backtick_run(flat) + 1)
    return f"{fence} {flat} {fence}"


def code_block(text: str, language: str = "") -> str:
    """``text`` as a fenced code block that shows it literally, line breaks included.

    The fence is at least three backticks and longer than any run inside, so no line of the
    text can close it; ``language`` is ours (an info string never comes from the user)."""
    lines = _LINE_BREAKS.sub("\n", text)
    fence = "`" * max(3, _longest_backtick_run(lines) + 1)
    return f"{fence}{language}\n{lines}\n{fence}"
