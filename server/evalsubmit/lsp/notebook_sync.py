"""Notebook document sync handlers (``notebookDocument/did*``): they rebuild the notebook's
joined module and hand it to the Analyses as the text of the notebook's own URI.

pygls has already applied the change to its copy of the notebook and of its cells when these
run (its built-in handlers go first).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING
from urllib.parse import unquote

from lsprotocol import types

from evalsubmit.core.cells import Cell
from evalsubmit.lsp.logs import guarded
from evalsubmit.lsp.notebooks import Layout

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

log = logging.getLogger(__name__)

NOTEBOOK_SYNC = types.NotebookDocumentSyncOptions(
    notebook_selector=[
        # Every cell (markdown too): the cell indexes are then the notebook's own.
        types.NotebookDocumentFilterWithNotebook(notebook="jupyter-notebook"),
    ],
    save=True,
)
PYTHON = "python"


@guarded()
async def did_open(ls: EvalsubmitServer, params: types.DidOpenNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    ls.session.notebooks.open(uri)
    _sync(ls, uri, opened=True)


@guarded()
async def did_change(ls: EvalsubmitServer, params: types.DidChangeNotebookDocumentParams) -> None:
    _sync(ls, params.notebook_document.uri, opened=False)


@guarded()
async def did_save(ls: EvalsubmitServer, params: types.DidSaveNotebookDocumentParams) -> None:
    ls.analyses.saved(params.notebook_document.uri)


@guarded()
async def did_close(ls: EvalsubmitServer, params: types.DidCloseNotebookDocumentParams) -> None:
    uri = params.notebook_document.uri
    ls.analyses.closed(uri)  # clears every cell's diagnostics (push) while the cells are known
    ls.session.notebooks.close(uri)
    ls.workspace.remove_text_document(uri)


def _sync(ls: EvalsubmitServer, uri: str, *, opened: bool) -> None:
    """Rebuild the notebook's module from pygls's copy; re-check it if it changed."""
    document = ls.workspace.get_notebook_document(notebook_uri=uri)
    notebook = ls.session.notebooks.get(uri)
    if document is None or notebook is None:
        log.warning("%s: a change of a notebook that is not open; ignored", uri)
        return
    previous = notebook.current
    cells = [(cell.document, _cell(ls, cell)) for cell in document.cells]
    layout = Layout.build(document.version, cells)
    if not opened and previous is not None:
        # A moved cell is removed then inserted, its document kept open: only a cell whose
        # document was closed (deleted) loses its diagnostics (pygls keys them unquoted).
        for gone in set(previous.cell_uris) - set(layout.cell_uris):
            if unquote(gone) not in ls.workspace.text_documents:
                ls.analyses.publisher.clear(gone)
        if previous.text == layout.text and previous.cell_uris == layout.cell_uris:
            return  # metadata, outputs, or a markdown edit: the module is the same
    notebook.add(layout)
    ls.workspace.put_text_document(
        types.TextDocumentItem(
            uri=uri, language_id=PYTHON, version=document.version, text=layout.text
        )
    )
    if opened:
        ls.analyses.opened(uri, document.version, layout.text)
    else:
        ls.analyses.changed(uri, document.version, layout.text)


def _cell(ls: EvalsubmitServer, cell: types.NotebookCell) -> Cell:
    text = ls.workspace.get_text_document(cell.document)
    if cell.kind == types.NotebookCellKind.Markup:
        kind = "markdown"
    else:  # a code cell in another language (SQL, R) is not part of the Python module
        kind = "code" if (text.language_id or PYTHON) == PYTHON else "raw"
    return Cell(kind=kind, text=text.source)
