"""The floor: a do-nothing pygls 2.x server that re-parses the whole text on every change.

It uses incremental text sync (pygls applies the edits), runs ``ast.parse`` on the full text
after every didOpen/didChange and publishes an empty diagnostics list for that version. Any
server that re-parses the full file per keystroke in pygls costs at least this much.

    python benchmarks/null_server.py [--no-gc-during-parse | --no-parse]

``--no-parse`` publishes without parsing: what pygls alone costs per edit (reading and
structuring the change, applying it to the text, serialising the publish), the floor under
every Python server built on it.
"""

from __future__ import annotations

import ast
import gc
import sys
import warnings

from lsprotocol import types
from pygls.lsp.server import LanguageServer

PAUSE_GC = "--no-gc-during-parse" in sys.argv
PARSE = "--no-parse" not in sys.argv

server = LanguageServer(
    name="bench-null",
    version="0",
    text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
)
# Keep the last tree alive, as a real server would.
trees: dict[str, ast.Module | None] = {}


def _check(ls: LanguageServer, uri: str, version: int | None) -> None:
    text = ls.workspace.get_text_document(uri).source
    if not PARSE:
        ls.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[], version=version)
        )
        return
    if PAUSE_GC:
        gc.disable()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            trees[uri] = ast.parse(text)
    except (SyntaxError, ValueError):
        trees[uri] = None
    finally:
        if PAUSE_GC:
            gc.enable()
    ls.text_document_publish_diagnostics(
        types.PublishDiagnosticsParams(uri=uri, diagnostics=[], version=version)
    )


@server.feature(types.TEXT_DOCUMENT_DID_OPEN)
def did_open(ls: LanguageServer, params: types.DidOpenTextDocumentParams) -> None:
    _check(ls, params.text_document.uri, params.text_document.version)


@server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
def did_change(ls: LanguageServer, params: types.DidChangeTextDocumentParams) -> None:
    _check(ls, params.text_document.uri, params.text_document.version)


@server.feature(types.TEXT_DOCUMENT_HOVER)
def hover(ls: LanguageServer, params: types.HoverParams) -> types.Hover | None:
    return None


if __name__ == "__main__":
    server.start_io()
