"""Code actions: quick fixes carried in ``Diagnostic.data``, ``source.fixAll.evalsubmit``, and
"Ignore ES10x on this line" (appends or merges a ``# evalsubmit: ignore[...]`` comment).

Every edit offered is checked to leave a parseable module when the module parsed before, and
is offered only when it was computed on the very text the editor has now: an edit computed on an
older text would land on the wrong place in a client that does not check versions.
"""

from __future__ import annotations

import ast
import io
import logging
import re
import tokenize
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from lsprotocol import types

from evalsubmit.analysis import Edit, ModuleReport, Span
from evalsubmit.lsp import convert
from evalsubmit.lsp.code_lens import submit_command
from evalsubmit.lsp.logs import guarded
from evalsubmit.lsp.state import Snapshot
from evalsubmit.lsp.submit import candidates

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

log = logging.getLogger(__name__)

FIX_ALL = "source.fixAll.evalsubmit"
FIX_ALL_ROUNDS = 5
SUBMIT_TITLE = "Submit evaluation"
SUBMIT_KIND = types.CodeActionKind.Empty
QUICK_FIX = types.CodeActionKind.QuickFix
_IGNORE = re.compile(r"#\s*evalsubmit:\s*ignore\[(?P<codes>[^\]]*)\]")


@guarded(default=None)
async def code_action(
    ls: EvalsubmitServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    snap = await ls.checker.snapshot(uri)
    if snap is None or not snap.settings.enable:
        return None
    only = params.context.only
    doc_changes = ls.session.document_changes
    current = snap.text == ls.workspace.get_text_document(uri).source
    if not current:
        log.debug("%s changed since its last analysis: no edits offered yet", uri)
    ours = [
        d
        for d in params.context.diagnostics
        if d.source == convert.SOURCE and _data_version(d) == snap.version
    ]
    actions: list[types.CodeAction] = []
    if _wanted(QUICK_FIX, only) and current:
        actions += quick_fixes(uri, snap, ours, ls.session.encoding, doc_changes)
        actions += ignore_actions(uri, snap, ours, ls.session.encoding, doc_changes)
    if _wanted(SUBMIT_KIND, only):
        actions += submit_actions(uri, snap, params.range, ls.session.encoding)
    if _wanted(FIX_ALL, only) and current and any(f.fixes for f in snap.report.findings):
        analyze = ls.checker.analyzer(uri, snap.settings)
        fixed = await ls.checker.in_pool(fix_all_text, snap, analyze)
        if fixed is not None:
            actions.append(fix_all_action(uri, snap, fixed, ls.session.encoding, doc_changes))
    return actions


def _data_version(diagnostic: types.Diagnostic) -> object:
    """The document version a diagnostic of ours was computed for (its fixes' too)."""
    data = diagnostic.data if isinstance(diagnostic.data, Mapping) else {}
    return data.get("version", "missing")


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    return only is None or any(kind == o or kind.startswith(f"{o}.") for o in only)


def submit_actions(
    uri: str, snap: Snapshot, rng: types.Range, encoding: convert.Encoding
) -> list[types.CodeAction]:
    """ "Submit evaluation" on a submit() call or Gym runner that would be accepted."""
    line, col = convert.core_position(rng.start, snap.lines, encoding)
    return [
        types.CodeAction(
            title=SUBMIT_TITLE,
            kind=SUBMIT_KIND,
            command=submit_command(SUBMIT_TITLE, uri, snap, candidate, encoding),
        )
        for candidate in candidates(snap)
        if candidate.span.contains(line, col)
    ][:1]


def quick_fixes(
    uri: str,
    snap: Snapshot,
    diagnostics: Sequence[types.Diagnostic],
    encoding: convert.Encoding,
    document_changes: bool,
) -> list[types.CodeAction]:
    actions: list[types.CodeAction] = []
    for diag in diagnostics:
        data = diag.data if isinstance(diag.data, Mapping) else {}
        version = data.get("version")
        for index, fix in enumerate(data.get("fixes") or []):
            try:
                edits = convert.edits_from_data(fix)
            except (KeyError, TypeError, ValueError):
                log.debug("ignoring malformed fix data on %s", diag.code)
                continue
            if version != snap.version:
                continue  # computed for another text
            if not _still_parses(snap.text, edits, encoding):
                log.warning("quick fix %r would break the syntax; not offered", fix.get("title"))
                continue
            actions.append(
                types.CodeAction(
                    title=str(fix.get("title", "Fix")),
                    kind=QUICK_FIX,
                    diagnostics=[diag],
                    is_preferred=index == 0,
                    edit=convert.workspace_edit(
                        uri, version, edits, document_changes=document_changes
                    ),
                )
            )
    return actions


def fix_all_text(snap: Snapshot, analyze: Callable[[str], ModuleReport]) -> str | None:
    """Apply the first fix of every finding, round after round (a fix may overlap another
    until that one is applied), skipping any fix that would break parsing. None if nothing
    changes."""
    text, report = snap.text, snap.report
    parsed = _parses(text)
    for _ in range(FIX_ALL_ROUNDS):
        accepted: list[Edit] = []
        for finding in sorted(report.findings, key=lambda f: f.span):
            if not finding.fixes:
                continue
            edits = list(finding.fixes[0].edits)
            if any(_overlaps(e.span, a.span) for e in edits for a in accepted):
                continue
            if parsed and not _parses(apply_edits(text, [*accepted, *edits])):
                continue
            accepted += edits
        if not accepted:
            break
        text = apply_edits(text, accepted)
        report = analyze(text)
    return text if text != snap.text else None


def fix_all_action(
    uri: str, snap: Snapshot, fixed: str, encoding: convert.Encoding, document_changes: bool
) -> types.CodeAction:
    """One edit covering the changed region (common prefix and suffix trimmed)."""
    edit = convert.text_edit(minimal_edit(snap.text, fixed), snap.lines, encoding)
    return types.CodeAction(
        title="Fix all evalsubmit problems",
        kind=FIX_ALL,
        edit=convert.workspace_edit(uri, snap.version, [edit], document_changes=document_changes),
    )


def minimal_edit(old: str, new: str) -> Edit:
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[-1 - suffix] == new[-1 - suffix]:
        suffix += 1
    if prefix and old[prefix - 1] == "\r":  # never split a CRLF pair
        prefix -= 1
    start, end = _position(old, prefix), _position(old, len(old) - suffix)
    return Edit(Span(*start, *end), new[prefix : len(new) - suffix])


def _position(text: str, offset: int) -> tuple[int, int]:
    """Core (1-based line, code-point col) of a string offset."""
    lines = convert.split_lines(text[:offset])
    return len(lines), len(lines[-1])


def ignore_actions(
    uri: str,
    snap: Snapshot,
    diagnostics: Sequence[types.Diagnostic],
    encoding: convert.Encoding,
    document_changes: bool,
) -> list[types.CodeAction]:
    actions: list[types.CodeAction] = []
    seen: set[tuple[str, int]] = set()
    unsafe = _lines_ending_in_strings(snap.text)
    for diag in diagnostics:
        code, index = str(diag.code), diag.range.start.line
        if (code, index) in seen or index >= len(snap.lines) or index + 1 in unsafe:
            continue
        seen.add((code, index))
        edit = suppression_edit(snap.lines, index, code)
        actions.append(
            types.CodeAction(
                title=f"Ignore {code} on this line",
                kind=QUICK_FIX,
                diagnostics=[diag],
                edit=convert.workspace_edit(
                    uri,
                    snap.version,
                    [convert.text_edit(edit, snap.lines, encoding)],
                    document_changes=document_changes,
                ),
            )
        )
    return actions


def suppression_edit(lines: Sequence[str], index: int, code: str) -> Edit:
    """Edit (core coordinates) adding ``code`` to the line's ignore comment, or appending one."""
    text, line = lines[index], index + 1
    match = _IGNORE.search(text)
    if match is not None:
        codes = {c.strip() for c in match.group("codes").split(",") if c.strip()} | {code}
        new = f"# evalsubmit: ignore[{', '.join(sorted(codes))}]"
        return Edit(Span(line, match.start(), line, match.end()), new)
    end = len(text.rstrip())
    return Edit(Span(line, end, line, len(text)), f"  # evalsubmit: ignore[{code}]")


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """Apply non-overlapping core edits (code-point columns) to ``text``."""
    starts = [0]
    lines = convert.split_lines(text)
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + _newline_len(text, starts[-1] + len(line)))

    def offset(line: int, col: int) -> int:
        index = max(0, min(line - 1, len(lines) - 1))
        return starts[index] + max(0, min(col, len(lines[index])))

    result = text
    for edit in sorted(edits, key=lambda e: e.span, reverse=True):
        span = edit.span
        start, end = offset(span.line, span.col), offset(span.end_line, span.end_col)
        result = result[:start] + edit.new_text + result[end:]
    return result


def _newline_len(text: str, at: int) -> int:
    return 2 if text.startswith("\r\n", at) else 1


def _overlaps(a: Span, b: Span) -> bool:
    return (a.line, a.col) < (b.end_line, b.end_col) and (b.line, b.col) < (a.end_line, a.end_col)


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


def _still_parses(text: str, edits: Sequence[types.TextEdit], encoding: convert.Encoding) -> bool:
    return not _parses(text) or _parses(convert.apply_text_edits(text, edits, encoding))


def _lines_ending_in_strings(text: str) -> set[int]:
    """1-based lines whose end lies inside a string or after a backslash continuation: a
    comment appended there would change the program."""
    lines = convert.split_lines(text)
    unsafe = {i + 1 for i, line in enumerate(lines) if line.endswith("\\")}
    # The tokenizer's line numbers must be the LSP's: one "\n" per LSP line break.
    try:
        for tok in tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline):
            if tok.type == tokenize.STRING or tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                unsafe.update(range(tok.start[0], tok.end[0]))
    except (tokenize.TokenError, SyntaxError):
        pass
    return unsafe
