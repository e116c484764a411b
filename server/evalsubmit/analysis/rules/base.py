"""Shared pieces of the rules: the context they read and mechanical edits they offer."""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from evalsubmit.analysis.interp.facts import ModuleFacts
from evalsubmit.analysis.rules import Rule
from evalsubmit.analysis.source.parse import ParsedModule
from evalsubmit.analysis.values.domain import Origin
from evalsubmit.core.findings import Edit, Finding, Fix, Span


@dataclass(slots=True)
class RuleContext:
    parsed: ParsedModule
    path: Path | None
    facts: ModuleFacts
    reported: set[tuple[str, Span]] = field(default_factory=set)
    remote: list[tuple[Path, Finding]] = field(default_factory=list)
    """Findings located in another module (reported in that module's analysis)."""

    def here(self, origin: Origin | None) -> bool:
        """Whether a value was written in the module being checked."""
        return origin is not None and origin.path == self.path

    def text(self, span: Span) -> str:
        lines = self.parsed.lines
        if span.line == span.end_line:
            return lines[span.line - 1][span.col : span.end_col]
        parts = [lines[span.line - 1][span.col :]]
        parts.extend(lines[span.line : span.end_line - 1])
        parts.append(lines[span.end_line - 1][: span.end_col])
        return "".join(parts)


def finding(rule: Rule, span: Span, message: str, *fixes: Fix) -> Finding:
    return Finding(rule.code, rule.kind, rule.severity, message, span, tuple(fixes))


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
