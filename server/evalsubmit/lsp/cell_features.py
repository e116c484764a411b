"""Requests on notebook cells: each is answered by the feature's own handler on the notebook's
joined module (:mod:`.notebooks`), its positions mapped in and its results mapped back.

A request on any other document goes to the feature's handler unchanged.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from evalsubmit.lsp import code_actions, code_lens, hover
from evalsubmit.lsp.logs import guarded
from evalsubmit.lsp.notebooks import Layout, OpenNotebook

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer


@guarded()
async def cell_hover(ls: EvalsubmitServer, params: types.HoverParams) -> types.Hover | None:
    uri = params.text_document.uri
    if (found := ls.session.notebooks.of_cell(uri)) is None:
        return await hover.hover(ls, params)
    notebook, layout, index = found
    enc = ls.session.encoding
    try:
        position = layout.from_cell(index, params.position, enc)
    except LookupError:  # a markdown cell, or a place of no cell in the module
        return None
    answer = await hover.hover(ls, types.HoverParams(_ident(notebook), position))
    if answer is None or answer.range is None:
        return answer
    try:
        cell, rng = _result_layout(ls, notebook).to_cell_range(answer.range, enc)
    except LookupError:
        return types.Hover(contents=answer.contents)
    return types.Hover(contents=answer.contents, range=rng if cell == index else None)


@guarded(default=None)
async def cell_code_lens(
    ls: EvalsubmitServer, params: types.CodeLensParams
) -> list[types.CodeLens] | None:
    uri = params.text_document.uri
    if (found := ls.session.notebooks.of_cell(uri)) is None:
        return await code_lens.code_lens(ls, params)
    notebook, _, _ = found
    lenses = await code_lens.code_lens(ls, types.CodeLensParams(_ident(notebook)))
    layout, enc = _result_layout(ls, notebook), ls.session.encoding
    mine: list[types.CodeLens] = []
    for lens in lenses or []:
        index, rng = layout.to_cell_range(lens.range, enc)
        if layout.cell_uris[index] == uri:
            mine.append(types.CodeLens(range=rng, command=_cell_command(lens.command, layout, enc)))
    return mine


@guarded(default=None)
async def cell_code_action(
    ls: EvalsubmitServer, params: types.CodeActionParams
) -> list[types.CodeAction] | None:
    uri = params.text_document.uri
    if (found := ls.session.notebooks.of_cell(uri)) is None:
        return await code_actions.code_action(ls, params)
    notebook, layout, index = found
    enc = ls.session.encoding
    joined = {id(d): _to_joined(d, notebook, uri, enc) for d in params.context.diagnostics}
    context = types.CodeActionContext(
        diagnostics=[d for d in joined.values() if d is not None],
        only=params.context.only,
        trigger_kind=params.context.trigger_kind,
    )
    try:
        rng = layout.from_cell_range(index, params.range, enc)
    except LookupError:
        return None
    actions = await code_actions.code_action(
        ls, types.CodeActionParams(_ident(notebook), rng, context)
    )
    back = {id(j): d for d in params.context.diagnostics if (j := joined[id(d)]) is not None}
    result_layout = _result_layout(ls, notebook)
    mapped = [_cell_action(ls, a, notebook.uri, result_layout, back) for a in actions or []]
    return [a for a in mapped if a is not None]


def _to_joined(
    diag: types.Diagnostic, notebook: OpenNotebook, cell_uri: str, enc: str
) -> types.Diagnostic | None:
    """A diagnostic of the cell, as the editor sent it back, on the joined text it was
    computed for (its ``data`` names that version)."""
    data = diag.data if isinstance(diag.data, Mapping) else {}
    version = data.get("version")
    layout = notebook.layout(version if isinstance(version, int) else None)
    index = layout.index_of(cell_uri) if layout is not None else None
    if layout is None or index is None:
        return None
    try:
        rng = layout.from_cell_range(index, diag.range, enc)
    except LookupError:
        return None
    return types.Diagnostic(
        range=rng,
        message=diag.message,
        severity=diag.severity,
        code=diag.code,
        code_description=diag.code_description,
        source=diag.source,
        data=diag.data,
    )


def _cell_action(
    ls: EvalsubmitServer,
    action: types.CodeAction,
    notebook_uri: str,
    layout: Layout,
    back: dict[int, types.Diagnostic],
) -> types.CodeAction | None:
    """The action with its edit on the cells (None when it cannot be written to them)."""
    enc = ls.session.encoding
    edit = None
    if action.edit is not None:
        edit = _cell_workspace_edit(ls, action.edit, notebook_uri, layout)
        if edit is None:
            return None
    return types.CodeAction(
        title=action.title,
        kind=action.kind,
        diagnostics=[back[id(d)] for d in action.diagnostics or [] if id(d) in back] or None,
        is_preferred=action.is_preferred,
        edit=edit,
        command=_cell_command(action.command, layout, enc),
    )


def _cell_workspace_edit(
    ls: EvalsubmitServer, edit: types.WorkspaceEdit, notebook_uri: str, layout: Layout
) -> types.WorkspaceEdit | None:
    edits: list[types.TextEdit] = list((edit.changes or {}).get(notebook_uri, []))
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            edits += [e for e in change.edits if isinstance(e, types.TextEdit)]
    per_cell = layout.cell_edits(edits, ls.session.encoding)
    if not per_cell:
        return None
    if not ls.session.document_changes:
        return types.WorkspaceEdit(changes={layout.cell_uris[i]: e for i, e in per_cell.items()})
    changes: list[Any] = []
    for index, cell_edits in sorted(per_cell.items()):
        uri = layout.cell_uris[index]
        version = ls.workspace.get_text_document(uri).version
        ident = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        changes.append(types.TextDocumentEdit(text_document=ident, edits=list(cell_edits)))
    return types.WorkspaceEdit(document_changes=changes)


def _cell_command(command: types.Command | None, layout: Layout, enc: str) -> types.Command | None:
    """A command whose first argument names a place ``{"uri", "line", "character"}`` of the
    joined text, naming the cell and the position in it instead."""
    if command is None or not command.arguments or not isinstance(command.arguments[0], dict):
        return command
    first = dict(command.arguments[0])
    line, character = first.get("line"), first.get("character")
    if not isinstance(line, int) or not isinstance(character, int):
        return command
    position = types.Position(line=line, character=character)
    index, at = layout.to_cell(position, enc)
    first.update(uri=layout.cell_uris[index], line=at.line, character=at.character)
    return types.Command(
        title=command.title, command=command.command, arguments=[first, *command.arguments[1:]]
    )


def on_cells(
    fn: Callable[..., Awaitable[Any]],
) -> Callable[..., Awaitable[Any]]:
    """A server command taking ``{"uri", "line"?, "character"?}`` first, also for a place in a
    cell: it gets the notebook's URI and the place in the joined text."""

    async def command(ls: EvalsubmitServer, *args: Any) -> Any:
        first = args[0] if args and isinstance(args[0], Mapping) else None
        uri = first.get("uri") if first is not None else None
        found = ls.session.notebooks.of_cell(uri) if isinstance(uri, str) else None
        if first is None or found is None:
            return await fn(ls, *args)
        notebook, layout, index = found
        moved = {**first, "uri": notebook.uri}
        line, character = first.get("line"), first.get("character")
        if isinstance(line, int):
            cell_position = types.Position(
                line=line, character=character if isinstance(character, int) else 0
            )
            at = layout.from_cell(index, cell_position, ls.session.encoding)
            moved.update(line=at.line, character=at.character)
        return await fn(ls, moved, *args[1:])

    return command


@guarded(default=types.RelatedFullDocumentDiagnosticReport(items=[]))
async def cell_diagnostic(
    ls: EvalsubmitServer, params: types.DocumentDiagnosticParams
) -> types.DocumentDiagnosticReport:
    """A cell's pulled diagnostics are none: a notebook's are pushed, per cell (the Analyses)."""
    if ls.session.notebooks.of_cell(params.text_document.uri) is not None:
        return types.RelatedFullDocumentDiagnosticReport(items=[])
    return await ls.analyses.pull(params.text_document.uri, params.previous_result_id)


def _ident(notebook: OpenNotebook) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=notebook.uri)


def _result_layout(ls: EvalsubmitServer, notebook: OpenNotebook) -> Layout:
    """The layout of the notebook's latest result, which the feature just answered from."""
    track = ls.analyses.documents.get(notebook.uri)
    latest = track.latest if track is not None else None
    layout = notebook.layout(latest.version if latest is not None else None)
    assert layout is not None  # an open notebook has one from its didOpen on
    return layout
