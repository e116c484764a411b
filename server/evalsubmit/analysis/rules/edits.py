"""Helpers of the rules' checks: building a finding, and the mechanical edits of quick fixes."""

from __future__ import annotations

import ast

from evalsubmit.analysis.rules.registry import Rule
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.core.findings import Edit, Finding, Fix, Span
from evalsubmit.core.records import replace


def finding(rule: Rule, span: Span, message: str, *fixes: Fix) -> Finding:
    """The finding, its fixes marked with the rule's declared applicability (``Rule.fix``), so a
    rule's docs and what ``--fix`` applies cannot disagree."""
    return Finding(rule.code, rule.kind, rule.severity, message, span, stamped(rule, fixes))


def stamped(rule: Rule, fixes: tuple[Fix, ...]) -> tuple[Fix, ...]:
    if rule.fix is None:
        if fixes:
            raise ValueError(f"{rule.code} offers a fix but declares no Rule.fix")
        return ()
    # A fix without edits (the argument to remove is inside a ** mapping) fixes nothing: it
    # would be counted as fixable and marked [*] while --fix changes nothing.
    return tuple(replace(fix, applicability=rule.fix) for fix in fixes if fix.edits)


def wrap(span: Span, before: str, after: str) -> tuple[Edit, ...]:
    start = Span(span.line, span.col, span.line, span.col)
    end = Span(span.end_line, span.end_col, span.end_line, span.end_col)
    return (Edit(start, before), Edit(end, after))


def remove_arguments(
    parsed: ParsedModule, call: ast.Call, names: set[str], replacement: str | None = None
) -> tuple[Edit, ...]:
    """Edits deleting the keyword arguments ``names`` from ``call``, commas included.

    Runs of adjacent removed arguments become one edit, so edits never overlap; with
    ``replacement`` the first run is replaced by that text instead of deleted.
    """
    arguments: list[tuple[ast.AST, bool]] = [(a, False) for a in call.args]
    arguments += [(k, k.arg in names) for k in call.keywords]
    arguments.sort(key=lambda item: (item[0].lineno, item[0].col_offset))  # type: ignore[attr-defined]
    edits: list[Edit] = []
    index = 0
    while index < len(arguments):
        if not arguments[index][1]:
            index += 1
            continue
        start = index
        while index < len(arguments) and arguments[index][1]:
            index += 1
        first = parsed.span(arguments[start][0])
        last = parsed.span(arguments[index - 1][0])
        text = replacement or ""
        replacement = None
        if index < len(arguments):
            after = parsed.span(arguments[index][0])
            edit = Edit(
                Span(first.line, first.col, after.line, after.col), text + ", " if text else ""
            )
        elif start > 0:
            before = parsed.span(arguments[start - 1][0])
            edit = Edit(
                Span(before.end_line, before.end_col, last.end_line, last.end_col),
                ", " + text if text else "",
            )
        else:
            edit = Edit(Span(first.line, first.col, last.end_line, last.end_col), text)
        edits.append(edit)
    return tuple(edits)
