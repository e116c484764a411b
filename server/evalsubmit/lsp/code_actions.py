"""Code actions: quick fixes carried in ``Diagnostic.data``, ``source.fixAll.evalsubmit``, and
"Ignore ES10x on this line" (appends or merges a ``# evalsubmit: ignore[...]`` comment).

Every edit offered is checked to leave a parseable module when the module parsed before, and
is offered only when it was computed on the very text the editor has now: an edit computed on an
older text would land on the wrong place in a client that does not check versions.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

from lsprotocol import types

from evalsubmit.analysis import Edit, Span
from evalsubmit.analysis.engine.fixes import fix_all, parses
from evalsubmit.core.edits import minimal_edit
from evalsubmit.core.suppression import lines_ending_in_strings, with_code
from evalsubmit.lsp import convert
from evalsubmit.lsp.code_lens import submit_command
from evalsubmit.lsp.command_table import SUBMIT
from evalsubmit.lsp.requests import Context
from evalsubmit.lsp.snapshot import Analysis, Snapshot
from evalsubmit.platform.submission import candidates

log = logging.getLogger(__name__)

FIX_ALL = "source.fixAll.evalsubmit"
SUBMIT_KIND = types.CodeActionKind.Empty
QUICK_FIX = types.CodeActionKind.QuickFix
AUTOMATIC = types.CodeActionTriggerKind.Automatic


async def code_action(
    snapshot: Snapshot, context: Context, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    snap = snapshot.analysed
    if not snapshot.current:
        log.debug("%s changed since its last analysis: no edits offered yet", snapshot.uri)
    ours = [
        d
        for d in params.context.diagnostics
        if d.source == convert.SOURCE
        and convert.diagnostic_data(d).get("version", "missing") == snap.version
    ]
    actions = line_actions(snapshot, context, params, ours)
    kinds = fix_all_kinds(params.context, ours)
    if kinds and snapshot.current and any(f.fixes for f in snap.report.findings):
        analyze = context.analyzer(snapshot.uri, snap.effective.options)
        fixed = await context.in_pool(fix_all, snap.text, snap.report, analyze)
        if fixed is not None:
            actions += [fix_all_action(snapshot, context, fixed, kind) for kind in kinds]
    return actions


def line_actions(
    snapshot: Snapshot,
    context: Context,
    params: types.CodeActionParams,
    ours: Sequence[types.Diagnostic],
) -> list[types.CodeAction]:
    """The quick fixes and "Ignore" of ``ours`` (the request's diagnostics that are of this
    analysis), then "Submit evaluation" at the range."""
    only = params.context.only
    actions: list[types.CodeAction] = []
    if _wanted(QUICK_FIX, only) and snapshot.current:
        actions += quick_fixes(snapshot, context, ours)
        actions += ignore_actions(snapshot, context, ours)
    # Submit only on request (Ctrl+.), never for the automatic lightbulb: clean lines show none.
    if _wanted(SUBMIT_KIND, only) and params.context.trigger_kind != AUTOMATIC:
        actions += submit_actions(snapshot.uri, snapshot.analysed, params.range, context.encoding)
    return actions


def fix_all_kinds(request: types.CodeActionContext, ours: Sequence[types.Diagnostic]) -> list[str]:
    """The kinds "Fix all" is offered as: a source action (on save, Source Action...), and in
    the quick-fix menu at a fixable problem; never for the automatic lightbulb request."""
    only = request.only
    asked = request.trigger_kind != AUTOMATIC
    as_source = _wanted(FIX_ALL, only) and (only is not None or asked)
    fixable = any(convert.diagnostic_data(d).get("fixes") for d in ours)
    as_quick_fix = _wanted(QUICK_FIX, only) and asked and fixable
    return [kind for kind, wanted in ((FIX_ALL, as_source), (QUICK_FIX, as_quick_fix)) if wanted]


def _wanted(kind: str, only: Sequence[str] | None) -> bool:
    return only is None or any(kind == o or kind.startswith(f"{o}.") for o in only)


def submit_actions(
    uri: str, snap: Analysis, rng: types.Range, encoding: convert.Encoding
) -> list[types.CodeAction]:
    """ "Submit evaluation" anywhere on the lines of a submit() call or Gym runner that would be
    accepted (column 0 included)."""
    line, _ = convert.core_position(rng.start, snap.lines, encoding)
    return [
        types.CodeAction(
            title=SUBMIT.title,
            kind=SUBMIT_KIND,
            command=submit_command(SUBMIT.title, uri, snap, candidate, encoding),
        )
        for candidate in candidates(snap.report)
        if candidate.span.line <= line <= candidate.span.end_line
    ][:1]


def quick_fixes(
    snapshot: Snapshot, context: Context, diagnostics: Sequence[types.Diagnostic]
) -> list[types.CodeAction]:
    """The fixes carried by ``diagnostics``. A fix with a placeholder (a value only the user
    knows) is offered only to a client that applies snippet edits in versioned edits, with the
    placeholder as a tab stop to type over; never written as it is."""
    uri, snap, encoding = snapshot.uri, snapshot.analysed, context.encoding
    snippets = context.document_changes and context.snippet_edits
    actions: list[types.CodeAction] = []
    for diag in diagnostics:
        data = convert.diagnostic_data(diag)
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
            title = f"evalsubmit ({diag.code}): {fix.get('title', 'Fix')}"
            if fix.get("placeholder") is not None:
                if snippets:
                    actions.append(_snippet_action(uri, version, diag, fix, title))
                continue
            actions.append(
                types.CodeAction(
                    title=title,
                    kind=QUICK_FIX,
                    diagnostics=[diag],
                    is_preferred=index == 0,
                    edit=convert.workspace_edit(
                        uri, version, edits, document_changes=context.document_changes
                    ),
                )
            )
    return actions


def _snippet_action(
    uri: str, version: int | None, diag: types.Diagnostic, fix: Mapping[str, Any], title: str
) -> types.CodeAction:
    """A fix whose placeholder the user fills in: a snippet edit (LSP 3.18), never preferred
    (so never applied by a "fix this" keystroke without being looked at)."""
    ident = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
    edit = types.TextDocumentEdit(text_document=ident, edits=convert.snippet_edits(fix))
    return types.CodeAction(
        title=f"{title} (type the {fix['placeholder']})",
        kind=QUICK_FIX,
        diagnostics=[diag],
        is_preferred=False,
        edit=types.WorkspaceEdit(document_changes=[edit]),
    )


def fix_all_action(
    snapshot: Snapshot, context: Context, fixed: str, kind: str = FIX_ALL
) -> types.CodeAction:
    """One edit covering the changed region (common prefix and suffix trimmed)."""
    snap, changes = snapshot.analysed, context.document_changes
    edit = convert.text_edit(minimal_edit(snap.text, fixed), snap.lines, context.encoding)
    return types.CodeAction(
        title="Fix all evalsubmit problems",
        kind=kind,
        edit=convert.workspace_edit(snapshot.uri, snap.version, [edit], document_changes=changes),
    )


def ignore_actions(
    snapshot: Snapshot, context: Context, diagnostics: Sequence[types.Diagnostic]
) -> list[types.CodeAction]:
    snap = snapshot.analysed
    actions: list[types.CodeAction] = []
    seen: set[tuple[str, int]] = set()
    unsafe = lines_ending_in_strings(snap.text)
    for diag in diagnostics:
        code, index = str(diag.code), diag.range.start.line
        if (code, index) in seen or index >= len(snap.lines) or index + 1 in unsafe:
            continue
        seen.add((code, index))
        edit = suppression_edit(snap.lines, index, code)
        actions.append(
            types.CodeAction(
                title=f"evalsubmit ({code}): Ignore on this line",
                kind=QUICK_FIX,
                diagnostics=[diag],
                edit=convert.workspace_edit(
                    snapshot.uri,
                    snap.version,
                    [convert.text_edit(edit, snap.lines, context.encoding)],
                    document_changes=context.document_changes,
                ),
            )
        )
    return actions


def suppression_edit(lines: Sequence[str], index: int, code: str) -> Edit:
    """Edit (core coordinates) adding ``code`` to the line's ignore comment, or appending one."""
    start, end, text = with_code(lines[index], code)
    return Edit(Span(index + 1, start, index + 1, end), text)


def _still_parses(text: str, edits: Sequence[types.TextEdit], encoding: convert.Encoding) -> bool:
    return not parses(text) or parses(convert.apply_text_edits(text, edits, encoding))
