"""Requests on notebook cells: each is answered by the feature's own handler on the notebook's
joined module (:mod:`.notebooks`), its positions mapped in and its results mapped back. The
``*_on_cells`` mappings are what :class:`.requests.Requests` applies to a request on a cell;
:func:`command_on_cells` does the same for a server command naming a place in a cell.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from lsprotocol import types

from evalsubmit.lsp.convert import diagnostic_data
from evalsubmit.lsp.notebooks import Layout, OpenNotebook, moved_diagnostic
from evalsubmit.lsp.requests import CellPlace, Moved
from evalsubmit.lsp.snapshot import Snapshot


def hover_on_cells(params: types.HoverParams, cell: CellPlace) -> Moved[Any, Any] | None:
    try:
        position = cell.layout.from_cell(cell.index, params.position, cell.encoding)
    except LookupError:  # a markdown cell, or a place of no cell in the module
        return None

    def back(answer: types.Hover | None, snapshot: Snapshot | None) -> types.Hover | None:
        if answer is None or answer.range is None:
            return answer
        try:
            index, rng = cell.result_layout(snapshot).to_cell_range(answer.range, cell.encoding)
        except LookupError:
            return types.Hover(contents=answer.contents)
        return types.Hover(contents=answer.contents, range=rng if index == cell.index else None)

    return Moved(types.HoverParams(_ident(cell.notebook), position), back)


def code_lens_on_cells(params: types.CodeLensParams, cell: CellPlace) -> Moved[Any, Any]:
    def back(
        answer: list[types.CodeLens] | None, snapshot: Snapshot | None
    ) -> list[types.CodeLens]:
        layout, enc = cell.result_layout(snapshot), cell.encoding
        mine: list[types.CodeLens] = []
        for lens in answer or []:
            index, rng = layout.to_cell_range(lens.range, enc)
            if layout.cell_uris[index] == cell.uri:
                command = _cell_command(lens.command, layout, enc)
                mine.append(types.CodeLens(range=rng, command=command))
        return mine

    return Moved(types.CodeLensParams(_ident(cell.notebook)), back)


def code_actions_on_cells(
    params: types.CodeActionParams, cell: CellPlace
) -> Moved[Any, Any] | None:
    """The request's diagnostics are moved onto the module (each as its own version had it),
    the actions' edits back onto the cells (an action whose edit cannot be is dropped)."""
    diagnostics = params.context.diagnostics
    joined = [_to_joined(d, cell.notebook, cell.uri, cell.encoding) for d in diagnostics]
    context = types.CodeActionContext(
        diagnostics=[d for d in joined if d is not None],
        only=params.context.only,
        trigger_kind=params.context.trigger_kind,
    )
    try:
        rng = cell.layout.from_cell_range(cell.index, params.range, cell.encoding)
    except LookupError:
        return None
    originals = {id(j): d for d, j in zip(diagnostics, joined, strict=True) if j is not None}

    def back(
        answer: list[types.CodeAction] | None, snapshot: Snapshot | None
    ) -> list[types.CodeAction]:
        layout = cell.result_layout(snapshot)
        versions = snapshot.cell_versions if snapshot is not None else {}
        mapped = [_cell_action(a, cell, layout, versions, originals) for a in answer or []]
        return [a for a in mapped if a is not None]

    return Moved(types.CodeActionParams(_ident(cell.notebook), rng, context), back)


def _to_joined(
    diag: types.Diagnostic, notebook: OpenNotebook, cell_uri: str, enc: str
) -> types.Diagnostic | None:
    """A diagnostic of the cell, as the editor sent it back, on the joined text it was
    computed for (its ``data`` names that version)."""
    version = diagnostic_data(diag).get("version")
    layout = notebook.layout(version if isinstance(version, int) else None)
    index = layout.index_of(cell_uri) if layout is not None else None
    if layout is None or index is None:
        return None
    try:
        rng = layout.from_cell_range(index, diag.range, enc)
    except LookupError:
        return None
    return moved_diagnostic(diag, rng)


def _cell_action(
    action: types.CodeAction,
    cell: CellPlace,
    layout: Layout,
    versions: Mapping[str, int | None],
    back: dict[int, types.Diagnostic],
) -> types.CodeAction | None:
    """The action with its edit on the cells (None when it cannot be written to them)."""
    edit = None
    if action.edit is not None:
        edit = _cell_workspace_edit(action.edit, cell, layout, versions)
        if edit is None:
            return None
    return types.CodeAction(
        title=action.title,
        kind=action.kind,
        diagnostics=[back[id(d)] for d in action.diagnostics or [] if id(d) in back] or None,
        is_preferred=action.is_preferred,
        edit=edit,
        command=_cell_command(action.command, layout, cell.encoding),
    )


def _cell_workspace_edit(
    edit: types.WorkspaceEdit, cell: CellPlace, layout: Layout, versions: Mapping[str, int | None]
) -> types.WorkspaceEdit | None:
    edits: list[types.TextEdit] = list((edit.changes or {}).get(cell.notebook.uri, []))
    for change in edit.document_changes or []:
        if isinstance(change, types.TextDocumentEdit):
            edits += [e for e in change.edits if isinstance(e, types.TextEdit)]
    per_cell = layout.cell_edits(edits, cell.encoding)
    if not per_cell:
        return None
    if not cell.document_changes:
        return types.WorkspaceEdit(changes={layout.cell_uris[i]: e for i, e in per_cell.items()})
    changes: list[Any] = []
    for index, cell_edits in sorted(per_cell.items()):
        uri = layout.cell_uris[index]
        ident = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=versions.get(uri))
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


def command_on_cells(args: tuple[Any, ...], cell: CellPlace) -> tuple[Any, ...]:
    """A server command taking ``{"uri", "line"?, "character"?}`` first, for a place in a cell:
    it gets the notebook's URI and the place in the joined text."""
    first = args[0]
    moved = {**first, "uri": cell.notebook.uri}
    line, character = first.get("line"), first.get("character")
    if isinstance(line, int):
        cell_position = types.Position(
            line=line, character=character if isinstance(character, int) else 0
        )
        at = cell.layout.from_cell(cell.index, cell_position, cell.encoding)
        moved.update(line=at.line, character=at.character)
    return (moved, *args[1:])


def _ident(notebook: OpenNotebook) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=notebook.uri)
