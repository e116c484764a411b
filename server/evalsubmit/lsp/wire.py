"""``textDocument/publishDiagnostics`` written as the JSON text pygls would send, with each
diagnostic's text kept from one push of a document to the next while it is unchanged.

Between two keystrokes most findings of a document are the same (equal, not the same objects:
the engine makes them anew) and so is their text on the wire but for the document's version,
which each diagnostic carries in its ``data`` for the code actions. Each diagnostic's text is
kept in two pieces around that version, by finding, and reused while the lines it was converted
on (its span's and its fixes' edits', which hold the LSP columns) are the same text; the
notification is then joined from the pieces, not walked by the JSON encoder. The text is the
one :func:`json.dumps` makes of :func:`.convert.diagnostic_json`'s objects in the message pygls
sends (same members, order and spacing): a test holds the two equal on the idioms' findings.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence

from lsprotocol import types

from evalsubmit.analysis import Finding
from evalsubmit.lsp import convert
from evalsubmit.lsp.convert import Encoding

METHOD = types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS

LineUsed = str | tuple[int, str] | None
"""What a conversion read of one line: its text, or for a line past the end the number of
lines and the last one (it is clamped to the end of the last), None before the first."""


class WireForms:
    """The JSON text of the diagnostics last pushed for one document (event loop only)."""

    def __init__(self) -> None:
        self._context: tuple[Encoding, tuple[tuple[str, str], ...]] | None = None
        self._kept: dict[Finding, tuple[tuple[LineUsed, ...], str, str]] = {}

    def diagnostics(
        self,
        findings: Sequence[Finding],
        lines: Sequence[str],
        *,
        version: int | None,
        severity_overrides: Mapping[str, str],
        encoding: Encoding,
    ) -> list[str]:
        """Each finding as the JSON text of its diagnostic; only these are kept for the next."""
        context = (encoding, tuple(sorted(severity_overrides.items())))
        kept = self._kept if context == self._context else {}
        fresh: dict[Finding, tuple[tuple[LineUsed, ...], str, str]] = {}
        shown = json.dumps(version)
        texts: list[str] = []
        for finding in findings:
            used = tuple([_line_used(lines, line) for line in _lines_read(finding)])
            entry = kept.get(finding)
            if entry is None or entry[0] != used:
                head, tail = _pieces(finding, lines, severity_overrides, encoding)
                entry = (used, head, tail)
            fresh[finding] = entry
            texts.append(entry[1] + shown + entry[2])
        self._context, self._kept = context, fresh
        return texts


def notification(uri: str, version: int | None, diagnostics: Sequence[str]) -> str:
    """The message's JSON text, as :func:`json.dumps` writes the notification pygls sends (the
    version is left out when there is none)."""
    shown = "" if version is None else f', "version": {json.dumps(version)}'
    return (
        f'{{"params": {{"uri": {json.dumps(uri)}, "diagnostics": [{", ".join(diagnostics)}]'
        f'{shown}}}, "method": {json.dumps(METHOD)}, "jsonrpc": "2.0"}}'
    )


def _lines_read(finding: Finding) -> Iterable[int]:
    """The (1-based) lines whose text the conversion of ``finding`` reads, each once."""
    span = finding.span
    if not finding.fixes:
        return (span.line,) if span.end_line == span.line else (span.line, span.end_line)
    read = {span.line: None, span.end_line: None}
    for fix in finding.fixes:
        for edit in fix.edits:
            read[edit.span.line] = read[edit.span.end_line] = None
    return read


def _line_used(lines: Sequence[str], line: int) -> LineUsed:
    if line < 1:
        return None
    if line > len(lines):
        return len(lines), lines[-1]
    return lines[line - 1]


def _pieces(
    finding: Finding, lines: Sequence[str], overrides: Mapping[str, str], encoding: Encoding
) -> tuple[str, str]:
    """The diagnostic's text before and after its version (``data`` is its last member, and
    the version is between its ``kind`` and its ``fixes``)."""
    item = convert.diagnostic_json(
        finding, lines, version=None, severity_overrides=overrides, encoding=encoding
    )
    data = item.pop("data")
    head = f'{json.dumps(item)[:-1]}, "data": {{"kind": {json.dumps(data["kind"])}, "version": '
    return head, f', "fixes": {json.dumps(data["fixes"])}}}}}'
