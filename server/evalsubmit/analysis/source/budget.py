"""How much syntax a source holds, estimated before anything is parsed.

``ast.parse`` builds every node of a text at once while it holds the GIL, and the interpreter
then visits each node. The size limit counts characters, and a string literal of any length is
one node, so characters do not bound that work: a single-line list ``[1,1,...]`` under the size
limit is hundreds of thousands of nodes (docs/reliability.md has what one cost). Tokens do
bound it. They are counted with one regular expression (C speed, no list built): a
string literal, a comment, a word or a punctuation character is one token each. The count errs
high (``**`` is two), never much low.

The whole text counts, not one statement: the parser's cuts between statements cannot be
trusted (a list whose items start in column 0 is cut wrongly and then parsed whole), and a file
of many small statements costs the same memory when it is parsed in one piece.
"""

from __future__ import annotations

import functools
import re


@functools.cache  # compiled on the first long text: most never get here
def _token_pattern() -> re.Pattern[str]:
    return re.compile(
        # Words first, the commonest (a string's prefix such as ``f`` counts as one more token).
        r"\w+"
        # An unterminated string ends at the end of its line (or of the text), so that every try
        # matches at once: a line of escaped quotes can never make the scan quadratic.
        r'|"""[\s\S]*?(?:"""|\Z)'
        r"|'''[\s\S]*?(?:'''|\Z)"
        # The body is a possessive unrolled loop (runs of plain characters between escapes): a
        # repeated alternation keeps one backtracking entry per character of the string.
        r'|"[^"\\\r\n]*(?:\\[\s\S][^"\\\r\n]*)*+(?:"|(?=[\r\n])|\Z)'
        r"|'[^'\\\r\n]*(?:\\[\s\S][^'\\\r\n]*)*+(?:'|(?=[\r\n])|\Z)"
        r"|#[^\r\n]*|[^\w\s]"
    )


def count_tokens(text: str) -> int:
    """About how many tokens Python's tokenizer would find in ``text`` (line ends aside)."""
    return _token_pattern().subn("", text)[1]


def too_many_tokens(source: str, limit: int) -> str | None:
    """The reason to skip ``source`` when it holds more than ``limit`` tokens, else ``None``.

    A token takes at least one character, so a text of at most ``limit`` characters is not
    scanned: an ordinary file costs nothing here, on any keystroke.
    """
    if len(source) <= limit:
        return None
    tokens = count_tokens(source)
    if tokens <= limit:
        return None
    return f"the file is too large to analyse: about {tokens:,} tokens (the limit is {limit:,})"
