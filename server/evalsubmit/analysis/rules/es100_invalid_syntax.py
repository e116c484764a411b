"""ES100 invalid-syntax: the module does not parse; the statements holding the error are not
checked (the rest is)."""

from __future__ import annotations

import ast
import bisect
import re
import sys
import warnings
from operator import attrgetter

from evalsubmit.analysis.rules.context import ModuleContext
from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import ModuleCheck, Rule, register
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.core.findings import Finding, Severity, Span

RULE = Rule(
    code="ES100",
    kind="invalid-syntax",
    title="the file does not parse",
    severity=Severity.ERROR,
    docs="""Python refuses the file before any of it runs, so no submission in it can work, and
evalsubmit cannot check the statement that holds the error: it checks the rest of the file
with that statement left out, and reports the error here (like ruff's `invalid-syntax`) so
that a run never says "All checks passed" about code it could not read. Reported once per
file, at Python's own first error; the count of statements left out is in the message. Only
a file that may reach the SDK is parsed: one whose text imports nothing that can lead to it
holds no submission, and its syntax is left to Python linters (ruff's `invalid-syntax`).
evalsubmit reads code with the Python it runs on; the SDK needs Python 3.12, so on an older
one, syntax 3.12 added (nested quotes in f-strings, `type` statements, type parameters) does
not parse, and the message says so: run evalsubmit with the project's Python.

```python
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner   # ES100: '(' was never closed
```

**Fix:** correct the syntax; the statement is then checked like the others.""",
)


def check(ctx: ModuleContext) -> list[Finding]:
    if not ctx.parsed.blanked:
        return []
    error = _first_error(ctx.parsed)
    if error is not None:
        span = _span(ctx, error)
        newer = _newer_syntax(ctx.parsed.lines[span.line - 1] if ctx.parsed.lines else "", error)
        return [finding(RULE, span, _message(error, len(ctx.parsed.blanked)) + newer)]
    first = ctx.parsed.blanked[0][0]
    return [finding(RULE, ctx.parsed.line_span(first), _message(None, len(ctx.parsed.blanked)))]


_LOOKS_PAST_THE_PIECE = ("unterminated triple-quoted", "expected an indented block")
"""Errors worded or placed by what follows the piece: a triple-quoted string is "detected" at
the end of the text, and a missing block at the next statement. An unclosed bracket is not
one of them: Python names the bracket wherever it stopped reading."""


def _first_error(parsed: ParsedModule) -> SyntaxError | None:
    """Python's own first error in the module. Parsing the broken top-level piece alone (its
    lines kept at their places) says the same when the error lies inside the piece and is not
    one found at its end, at a fraction of the cost of the whole file: this runs on every
    keystroke of half-typed code. ``test_es100_invalid_syntax`` holds it to the whole parse."""
    first = parsed.blanked[0][0]
    # the pieces follow each other in the text: the one holding the line is the last one
    # starting at or before it, found by bisection (thousands on a long module)
    at = bisect.bisect_right(parsed.chunks, first, key=attrgetter("start")) - 1
    chunk = parsed.chunks[at] if at >= 0 else None
    if chunk is not None and chunk.start <= first <= chunk.end:
        piece = "\n" * (chunk.start - 1) + "".join(parsed.lines[chunk.start - 1 : chunk.end])
        error = _parse_error(piece)
        if (
            error is not None
            and chunk.start <= (error.lineno or 0) <= chunk.end
            and not any(words in (error.msg or "") for words in _LOOKS_PAST_THE_PIECE)
        ):
            return error
    return _parse_error("".join(parsed.lines))


def _parse_error(text: str) -> SyntaxError | None:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            ast.parse(text)
    except SyntaxError as error:
        return error
    except (ValueError, RecursionError, MemoryError):
        pass
    return None


def _span(ctx: ModuleContext, error: SyntaxError) -> Span:
    line = max(1, min(error.lineno or 1, len(ctx.parsed.lines)))
    text = ctx.parsed.lines[line - 1].rstrip("\r\n") if ctx.parsed.lines else ""
    col = max(0, min((error.offset or 1) - 1, len(text)))
    end = col + 1 if col < len(text) else col
    return Span(line, col, line, end)


_NEWER_SYNTAX = re.compile(
    r"^\s*(?:type\s+\w+\s*(?:\[|=)|(?:async\s+)?def\s+\w+\s*\[|class\s+\w+\s*\[)"
)
"""Python 3.12's type statement and type parameters (PEP 695), which the SDK's Pythons read."""


def _newer_syntax(line: str, error: SyntaxError) -> str:
    """A hint when the host Python is older than 3.12 (the SDK needs 3.12) and the error looks
    like syntax 3.12 added: nested quotes in an f-string (PEP 701), type parameters and type
    statements (PEP 695). The error stays: the statement was not checked."""
    if sys.version_info >= (3, 12):
        return ""
    if not (_NEWER_SYNTAX.match(line) or (error.msg or "").startswith("f-string")):
        return ""
    version = f"{sys.version_info.major}.{sys.version_info.minor}"
    return (
        f"; this may be Python 3.12 syntax, which evalsubmit cannot read on the Python"
        f" {version} it runs on: run it with the project's Python"
    )


def _message(error: SyntaxError | None, left_out: int) -> str:
    why = error.msg if error is not None and error.msg else "invalid syntax"
    statements = "statement" if left_out == 1 else "statements"
    return f"syntax error: {why} ({left_out} {statements} not checked)"


register(RULE, ModuleCheck(0, check))
