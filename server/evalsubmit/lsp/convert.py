"""Conversions between the analysis core's positions and LSP positions, stated once.

Core (:mod:`evalsubmit.core.findings`): ``line`` 1-based, ``col`` 0-based in Unicode code
points. LSP: ``line`` 0-based, ``character`` 0-based in the negotiated position encoding (UTF-16
code units unless the client offered ``utf-8`` or ``utf-32``). Lines are split on ``\\r\\n``,
``\\r`` and ``\\n`` only (:mod:`evalsubmit.core.lines`), as both the LSP and Python's tokenizer
do (``str.splitlines`` would also split on form feeds and ``\\u2028``, shifting later lines).
The server's copy of a document is kept with the same splitting (:mod:`.text_sync`).

Out-of-range input (a span past the end of a line or of the document, as can happen with a
stale report) is clamped, never raised. A document's URI becomes a path here too (and one
spelling of a path, to compare them).
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.uris import to_fs_path

from evalsubmit.analysis import Edit, Finding, Fix, Severity, Span
from evalsubmit.analysis.rules import RULES
from evalsubmit.core.lines import line_starts, split_lines

UTF8 = types.PositionEncodingKind.Utf8
UTF16 = types.PositionEncodingKind.Utf16
UTF32 = types.PositionEncodingKind.Utf32
Encoding = types.PositionEncodingKind | str

SOURCE = "evalsubmit"

_SEVERITY = {
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "information": types.DiagnosticSeverity.Information,
    "hint": types.DiagnosticSeverity.Hint,
}


def _units(char: str, encoding: Encoding) -> int:
    if encoding == UTF8:
        return len(char.encode("utf-8", "surrogatepass"))  # a lone surrogate: never a crash
    if encoding == UTF32:
        return 1
    return 2 if ord(char) > 0xFFFF else 1


def to_lsp_character(line_text: str, col: int, encoding: Encoding = UTF16) -> int:
    """Code-point column -> LSP character offset on the same line."""
    col = max(0, min(col, len(line_text)))
    if encoding == UTF32:
        return col
    prefix = line_text[:col]
    if prefix.isascii():  # one unit per code point in every encoding: most lines of code
        return col
    if encoding == UTF8:
        return len(prefix.encode("utf-8", "surrogatepass"))
    return len(prefix.encode("utf-16-le", "surrogatepass")) // 2


def from_lsp_character(line_text: str, character: int, encoding: Encoding = UTF16) -> int:
    """LSP character offset -> code-point column (a split surrogate pair rounds down)."""
    if encoding == UTF32 or line_text.isascii():
        return max(0, min(character, len(line_text)))
    used = 0
    for index, ch in enumerate(line_text):
        used += _units(ch, encoding)
        if used > character:
            return index
    return len(line_text)


def lsp_position(
    line: int, col: int, lines: Sequence[str], encoding: Encoding = UTF16
) -> types.Position:
    """Core position (1-based line, code-point col) -> LSP Position."""
    return types.Position(**_position_json(line, col, lines, encoding))


def core_position(
    position: types.Position, lines: Sequence[str], encoding: Encoding = UTF16
) -> tuple[int, int]:
    """LSP Position -> core (1-based line, code-point col)."""
    index = max(0, min(position.line, len(lines) - 1))
    return index + 1, from_lsp_character(lines[index], position.character, encoding)


def lsp_range(span: Span, lines: Sequence[str], encoding: Encoding = UTF16) -> types.Range:
    return types.Range(
        start=lsp_position(span.line, span.col, lines, encoding),
        end=lsp_position(span.end_line, span.end_col, lines, encoding),
    )


def lsp_severity_named(name: str) -> types.DiagnosticSeverity:
    return _SEVERITY.get(name, _SEVERITY[Severity.WARNING])


def text_edit(edit: Edit, lines: Sequence[str], encoding: Encoding = UTF16) -> types.TextEdit:
    return types.TextEdit(range=lsp_range(edit.span, lines, encoding), new_text=edit.new_text)


def fix_data(fix: Fix, lines: Sequence[str], encoding: Encoding = UTF16) -> dict[str, Any]:
    """A fix as plain JSON for ``Diagnostic.data`` (ranges already in LSP units); a fix with
    a placeholder names it (``placeholder``: offered only as a snippet)."""
    data: dict[str, Any] = {
        "title": fix.title,
        "edits": [
            {"range": _range_json(lsp_range(e.span, lines, encoding)), "newText": e.new_text}
            for e in fix.edits
        ],
    }
    if fix.placeholder is not None:
        data["placeholder"] = fix.placeholder.text
    return data


def snippet(new_text: str, placeholder: str) -> str:
    """``new_text`` as an LSP snippet: ``placeholder`` as the tab stop ``${1:...}`` the user
    types over (each occurrence the same stop), every other ``$``, ``}`` and ``\\`` escaped."""
    stop = "${1:" + _escaped(placeholder) + "}"
    return stop.join(_escaped(part) for part in new_text.split(placeholder))


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def snippet_edits(fix: Mapping[str, Any]) -> list[types.SnippetTextEdit]:
    """The edits of a fix stored by :func:`fix_data` with a placeholder, as snippet edits."""
    placeholder = str(fix["placeholder"])
    return [
        types.SnippetTextEdit(
            range=range_from_json(e["range"]),
            snippet=types.StringValue(value=snippet(str(e["newText"]), placeholder)),
        )
        for e in fix["edits"]
    ]


def diagnostic(
    finding: Finding,
    lines: Sequence[str],
    *,
    version: int | None,
    severity_overrides: Mapping[str, str],
    encoding: Encoding = UTF16,
) -> types.Diagnostic:
    rule = RULES.get(finding.code)
    return types.Diagnostic(
        range=lsp_range(finding.span, lines, encoding),
        message=finding.message,
        severity=_severity(finding, severity_overrides),
        code=finding.code,
        code_description=types.CodeDescription(href=rule.url) if rule is not None else None,
        source=SOURCE,
        data=_data(finding, lines, version, encoding),
    )


def diagnostic_json(
    finding: Finding,
    lines: Sequence[str],
    *,
    version: int | None,
    severity_overrides: Mapping[str, str],
    encoding: Encoding = UTF16,
) -> dict[str, Any]:
    """:func:`diagnostic` as the JSON the client receives (what pygls's converter makes of it:
    camel case, no member for a field that is None), made directly: the converter walks each
    field of each object it is given, most of what a push of a long module's findings costs.
    A test holds the two equal."""
    span = finding.span
    item: dict[str, Any] = {
        "range": {
            "start": _position_json(span.line, span.col, lines, encoding),
            "end": _position_json(span.end_line, span.end_col, lines, encoding),
        },
        "message": finding.message,
        "severity": _severity(finding, severity_overrides).value,
        "code": finding.code,
    }
    rule = RULES.get(finding.code)
    if rule is not None:
        item["codeDescription"] = {"href": rule.url}
    item["source"] = SOURCE
    item["data"] = _data(finding, lines, version, encoding)
    return item


def _severity(finding: Finding, overrides: Mapping[str, str]) -> types.DiagnosticSeverity:
    return lsp_severity_named(overrides.get(finding.code, str(finding.severity)))


def _data(
    finding: Finding, lines: Sequence[str], version: int | None, encoding: Encoding
) -> dict[str, Any]:
    """What a diagnostic carries for the code actions: its kind, version and fixes."""
    return {
        "kind": finding.kind,
        "version": version,
        "fixes": [fix_data(fix, lines, encoding) for fix in finding.fixes],
    }


def _position_json(line: int, col: int, lines: Sequence[str], encoding: Encoding) -> dict[str, int]:
    index = line - 1
    if index < 0:
        return {"line": 0, "character": 0}
    if index >= len(lines):
        index, col = len(lines) - 1, 10**9
    return {"line": index, "character": to_lsp_character(lines[index], col, encoding)}


def diagnostic_data(item: types.Diagnostic) -> Mapping[str, Any]:
    """The ``data`` of a diagnostic as the client sent it back (empty when it is no object:
    another tool's diagnostic, or a client that dropped it)."""
    return item.data if isinstance(item.data, Mapping) else {}


def _range_json(rng: types.Range) -> dict[str, Any]:
    return {
        "start": {"line": rng.start.line, "character": rng.start.character},
        "end": {"line": rng.end.line, "character": rng.end.character},
    }


def range_from_json(data: Mapping[str, Any]) -> types.Range:
    start, end = data["start"], data["end"]
    return types.Range(
        start=types.Position(line=int(start["line"]), character=int(start["character"])),
        end=types.Position(line=int(end["line"]), character=int(end["character"])),
    )


def edits_from_data(fix: Mapping[str, Any]) -> list[types.TextEdit]:
    """TextEdits of one fix stored by :func:`fix_data` (raises on malformed data)."""
    return [
        types.TextEdit(range=range_from_json(e["range"]), new_text=str(e["newText"]))
        for e in fix["edits"]
    ]


def workspace_edit(
    uri: str,
    version: int | None,
    edits: Sequence[types.TextEdit],
    *,
    document_changes: bool,
) -> types.WorkspaceEdit:
    """A WorkspaceEdit, versioned (``documentChanges``) when the client supports it."""
    if document_changes:
        ident = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=ident, edits=list(edits))]
        )
    return types.WorkspaceEdit(changes={uri: list(edits)})


def apply_text_edits(text: str, edits: Sequence[types.TextEdit], encoding: Encoding = UTF16) -> str:
    """Apply non-overlapping edits (LSP units) to ``text``; used to verify fixes re-parse."""
    lines = split_lines(text)
    starts = line_starts(text)

    def offset(pos: types.Position) -> int:
        line, col = core_position(pos, lines, encoding)
        return starts[line - 1] + col

    result = text
    spans = sorted((offset(e.range.start), offset(e.range.end), e.new_text) for e in edits)
    for start, end, new_text in reversed(spans):
        result = result[:start] + new_text + result[end:]
    return result


def spelling(path: Path) -> str:
    """One spelling per file, for comparing paths."""
    return os.path.normcase(os.path.abspath(path))


def uri_to_path(uri: str) -> Path:
    fs = to_fs_path(uri)
    return Path(fs) if fs else Path(uri)
