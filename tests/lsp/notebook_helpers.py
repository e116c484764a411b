"""A notebook as people write it, and the LSP 3.17 notebook messages a VS Code-like client
sends for it (didOpen with its cells, cell text edits, cells added, moved and deleted)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from lsp_helpers import HEADER, RecordingClient, wait_until
from lsprotocol import types

INSTALL = "%pip install -q nemo-evaluator-sdk nemo-platform\n%load_ext autoreload"
INTRO = "# Evaluate the QA agent\n\nThe runner is defined once and submitted below."
SHELL = "!ls -la configs/\nfiles = !ls configs/*.yaml\nprint(files)"
SUBMIT = 'job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\nprint(job)'
BROKEN = "def summarise(results:\n    return results"
NIGHTLY = (
    "def nightly(ref: str):\n"
    "    return client.evaluator.submit(\n"
    "        tasks=TasksetRef(ref),\n"
    "        target=runner,\n"
    "        config=RunConfig(parallelism=16),\n"
    "    )\n"
    "\n"
    'nightly("qa/nightly")'
)

# (kind, text): cell 2 defines the runner, cell 5 submits it; cell 6 does not parse; cell 7
# has an ES102 (a taskset submit does not take config=).
CELLS: list[tuple[str, str]] = [
    ("code", INSTALL),
    ("markdown", INTRO),
    ("code", HEADER.rstrip("\n")),
    ("code", SHELL),
    ("markdown", "## Submit the smoke taskset"),
    ("code", SUBMIT),
    ("code", BROKEN),
    ("code", NIGHTLY),
]


def ipynb(cells: list[tuple[str, str]]) -> str:
    """The notebook file as Jupyter writes it (outputs and execution counts kept)."""
    nb_cells = []
    for index, (kind, text) in enumerate(cells):
        cell: dict[str, object] = {
            "cell_type": kind,
            "id": f"cell-{index}",
            "metadata": {},
            "source": text.splitlines(keepends=True),
        }
        if kind == "code":
            cell |= {"execution_count": index, "outputs": []}
        nb_cells.append(cell)
    notebook = {
        "cells": nb_cells,
        "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(notebook, indent=1) + "\n"


@dataclass
class Notebook:
    """The client's side of an open notebook: its cells' URIs, texts and versions."""

    client: RecordingClient
    uri: str
    path: Path
    version: int = 1
    cells: list[tuple[str, str, str]] = field(default_factory=list)
    """(uri, kind, text) in document order."""
    cell_versions: dict[str, int] = field(default_factory=dict)
    _next: int = 0

    def new_cell_uri(self) -> str:
        uri = f"vscode-notebook-cell:{self.path.as_posix()}#W{self._next}sZmlsZQ%3D%3D"
        self._next += 1
        return uri

    def cell(self, index: int) -> str:
        return self.cells[index][0]

    def text(self, index: int) -> str:
        return self.cells[index][2]

    @staticmethod
    def lsp_cell(uri: str, kind: str) -> types.NotebookCell:
        markup = types.NotebookCellKind.Markup
        return types.NotebookCell(
            kind=markup if kind == "markdown" else types.NotebookCellKind.Code, document=uri
        )

    def item(self, uri: str, kind: str, text: str) -> types.TextDocumentItem:
        self.cell_versions[uri] = 1
        language = "markdown" if kind == "markdown" else "python"
        return types.TextDocumentItem(uri=uri, language_id=language, version=1, text=text)

    def _change(self, cells: types.NotebookDocumentCellChanges) -> None:
        self.version += 1
        self.client.notebook_document_did_change(
            types.DidChangeNotebookDocumentParams(
                notebook_document=types.VersionedNotebookDocumentIdentifier(
                    version=self.version, uri=self.uri
                ),
                change=types.NotebookDocumentChangeEvent(cells=cells),
            )
        )

    def edit_cell(self, index: int, text: str) -> None:
        """Replace a cell's whole text (one content change)."""
        uri, kind, old = self.cells[index]
        self.cells[index] = (uri, kind, text)
        self.cell_versions[uri] += 1
        end = types.Position(line=old.count("\n"), character=len(old.split("\n")[-1]))
        change = types.TextDocumentContentChangePartial(
            range=types.Range(start=types.Position(line=0, character=0), end=end), text=text
        )
        ident = types.VersionedTextDocumentIdentifier(uri=uri, version=self.cell_versions[uri])
        content = types.NotebookDocumentCellContentChanges(document=ident, changes=[change])
        self._change(types.NotebookDocumentCellChanges(text_content=[content]))

    def splice(self, start: int, delete: int, new: list[tuple[str, str]]) -> list[str]:
        """Delete ``delete`` cells at ``start`` and insert ``new`` (kind, text) there; returns
        the new cells' URIs."""
        removed = self.cells[start : start + delete]
        added = [(self.new_cell_uri(), kind, text) for kind, text in new]
        self.cells[start : start + delete] = added
        structure = types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(
                start=start,
                delete_count=delete,
                cells=[self.lsp_cell(uri, kind) for uri, kind, _ in added],
            ),
            did_open=[self.item(uri, kind, text) for uri, kind, text in added],
            did_close=[types.TextDocumentIdentifier(uri=uri) for uri, _, _ in removed],
        )
        self._change(types.NotebookDocumentCellChanges(structure=structure))
        return [uri for uri, _, _ in added]

    def move(self, source: int, target: int) -> None:
        """Move one cell, as VS Code says it: a delete and an insert of the same cell (its
        document stays open, so neither didOpen nor didClose)."""
        moved = self.cells.pop(source)
        self.version += 1
        first = types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(start=source, delete_count=1, cells=[])
        )
        self.client.notebook_document_did_change(
            types.DidChangeNotebookDocumentParams(
                notebook_document=types.VersionedNotebookDocumentIdentifier(
                    version=self.version, uri=self.uri
                ),
                change=types.NotebookDocumentChangeEvent(
                    cells=types.NotebookDocumentCellChanges(structure=first)
                ),
            )
        )
        self.cells.insert(target, moved)
        second = types.NotebookDocumentCellChangeStructure(
            array=types.NotebookCellArrayChange(
                start=target, delete_count=0, cells=[self.lsp_cell(moved[0], moved[1])]
            )
        )
        self._change(types.NotebookDocumentCellChanges(structure=second))

    def close(self) -> None:
        self.client.notebook_document_did_close(
            types.DidCloseNotebookDocumentParams(
                notebook_document=types.NotebookDocumentIdentifier(uri=self.uri),
                cell_text_documents=[
                    types.TextDocumentIdentifier(uri=uri) for uri, _, _ in self.cells
                ],
            )
        )


def open_notebook(
    client: RecordingClient, path: Path, cells: list[tuple[str, str]] | None = None
) -> Notebook:
    cells = CELLS if cells is None else cells
    path.write_text(ipynb(cells), encoding="utf-8")
    notebook = Notebook(client, path.as_uri(), path)
    notebook.cells = [(notebook.new_cell_uri(), kind, text) for kind, text in cells]
    client.notebook_document_did_open(
        types.DidOpenNotebookDocumentParams(
            notebook_document=types.NotebookDocument(
                uri=notebook.uri,
                notebook_type="jupyter-notebook",
                version=1,
                cells=[Notebook.lsp_cell(uri, kind) for uri, kind, _ in notebook.cells],
            ),
            cell_text_documents=[notebook.item(u, k, t) for u, k, t in notebook.cells],
        )
    )
    return notebook


async def cell_diagnostics(
    client: RecordingClient, cell_uri: str, *, after: int = 0
) -> list[types.Diagnostic]:
    """The diagnostics of the first publication for the cell at index >= ``after``."""

    def find() -> types.PublishDiagnosticsParams | None:
        found = client.published.get(cell_uri, [])[after:]
        return found[0] if found else None

    params: types.PublishDiagnosticsParams = await wait_until(find)
    return list(params.diagnostics)


def position_in(text: str, needle: str, offset: int = 0) -> types.Position:
    start = text.index(needle)
    line = text[:start].count("\n")
    return types.Position(line=line, character=start - (text.rfind("\n", 0, start) + 1) + offset)
