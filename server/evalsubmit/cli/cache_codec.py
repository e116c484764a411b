"""Findings as plain JSON data, and back, for the result cache (:mod:`.result_cache`).

Data only, never code: a cache file is read from the user's tree, which anyone could have put
there, so nothing in it is executed (no pickle) and anything that is not exactly the expected
shape is refused with :class:`CorruptEntry` (the entry is then a miss, never an error). Every
field of a finding round-trips: its fixes with their edits, and the walks it was found in.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from evalsubmit.core.findings import (
    Applicability,
    Edit,
    Finding,
    Fix,
    Label,
    LabelKind,
    Occasion,
    Severity,
    Site,
    Span,
)


class CorruptEntry(ValueError):
    """A cache entry that is not what this version writes."""


def encode_findings(findings: tuple[Finding, ...] | list[Finding]) -> list[Any]:
    return [_encode_finding(finding) for finding in findings]


def decode_findings(data: object) -> list[Finding]:
    return [_decode_finding(item) for item in _list(data)]


def encode_remote(remote: tuple[tuple[Path, Finding], ...]) -> list[Any]:
    return [[str(path), _encode_finding(finding)] for path, finding in remote]


def decode_remote(data: object) -> tuple[tuple[Path, Finding], ...]:
    pairs = []
    for item in _list(data):
        path, finding = _fields(item, 2)
        pairs.append((Path(_str(path)), _decode_finding(finding)))
    return tuple(pairs)


def _encode_finding(finding: Finding) -> list[Any]:
    return [
        finding.code,
        finding.kind,
        finding.severity.value,
        finding.message,
        _encode_span(finding.span),
        [_encode_fix(fix) for fix in finding.fixes],
        [_encode_walk(walk) for walk in finding.context],
        *([] if finding.cell is None else [finding.cell]),  # a notebook's: the span is the cell's
    ]


def _decode_finding(data: object) -> Finding:
    items = _list(data)
    cell = _int(items.pop()) if len(items) == 8 else None
    code, kind, severity, message, span, fixes, context = _fields(items, 7)
    try:
        level = Severity(_str(severity))
    except ValueError:
        raise CorruptEntry(f"unknown severity {severity!r}") from None
    return Finding(
        _str(code),
        _str(kind),
        level,
        _str(message),
        _decode_span(span),
        tuple(_decode_fix(fix) for fix in _list(fixes)),
        tuple(_decode_walk(walk) for walk in _list(context)),
        cell,
    )


def _encode_span(span: Span) -> list[int]:
    return [span.line, span.col, span.end_line, span.end_col]


def _decode_span(data: object) -> Span:
    line, col, end_line, end_col = (_int(value) for value in _fields(data, 4))
    return Span(line, col, end_line, end_col)


def _encode_fix(fix: Fix) -> list[Any]:
    edits = [[_encode_span(edit.span), edit.new_text] for edit in fix.edits]
    return [fix.title, edits, fix.applicability.value]


def _decode_fix(data: object) -> Fix:
    title, edits, applicability = _fields(data, 3)
    decoded = []
    for edit in _list(edits):
        span, new_text = _fields(edit, 2)
        decoded.append(Edit(_decode_span(span), _str(new_text)))
    try:
        safety = Applicability(_str(applicability))
    except ValueError:
        raise CorruptEntry(f"unknown applicability {applicability!r}") from None
    return Fix(_str(title), tuple(decoded), safety)


def _encode_walk(walk: Occasion) -> list[Any]:
    lines = list(walk.lines) if walk.lines is not None else None
    site, label = walk.group, walk.label
    return [
        [site.kind, site.line, site.col],
        walk.index,
        walk.total,
        [label.kind.value, label.name, label.line],
        lines,
    ]


def _decode_walk(data: object) -> Occasion:
    group, index, total, label, lines = _fields(data, 5)
    span = None
    if lines is not None:
        first, last = _fields(lines, 2)
        span = (_int(first), _int(last))
    kind, name, line = _fields(label, 3)
    try:
        decoded = Label(LabelKind(_str(kind)), _str(name), _int(line))
    except ValueError:
        raise CorruptEntry(f"unknown label kind {kind!r}") from None
    site, line, col = _fields(group, 3)
    return Occasion(
        Site(_str(site), _int(line), _int(col)), _int(index), _int(total), decoded, span
    )


def _list(data: object) -> list[Any]:
    if not isinstance(data, list):
        raise CorruptEntry(f"expected a list, got {type(data).__name__}")
    return data


def _fields(data: object, count: int) -> list[Any]:
    items = _list(data)
    if len(items) != count:
        raise CorruptEntry(f"expected {count} fields, got {len(items)}")
    return items


def _str(data: object) -> str:
    if not isinstance(data, str):
        raise CorruptEntry(f"expected a string, got {type(data).__name__}")
    return data


def _int(data: object) -> int:
    if not isinstance(data, int) or isinstance(data, bool):
        raise CorruptEntry(f"expected a number, got {type(data).__name__}")
    return data
