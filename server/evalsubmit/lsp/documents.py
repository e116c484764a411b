"""Text synchronisation handlers: they record what changed and let the Analyses schedule work.

pygls has already applied the change to ``ls.workspace`` when these run. ``didChange`` is
called at once, while its message is dispatched (:class:`.protocol.EvalsubmitProtocol`): it
must not await.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

from evalsubmit.lsp.convert import uri_to_path
from evalsubmit.lsp.logs import guarded, guarded_now
from evalsubmit.lsp.project_config import is_config_file
from evalsubmit.workspace.walk import SUFFIXES

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

log = logging.getLogger(__name__)


@guarded()
async def did_open(ls: EvalsubmitServer, params: types.DidOpenTextDocumentParams) -> None:
    doc = params.text_document
    ls.analyses.opened(doc.uri, doc.version, doc.text)


@guarded_now
def did_change(ls: EvalsubmitServer, params: types.DidChangeTextDocumentParams) -> None:
    uri = params.text_document.uri
    text = ls.workspace.get_text_document(uri).source
    ls.analyses.changed(uri, params.text_document.version, text)


@guarded()
async def did_save(ls: EvalsubmitServer, params: types.DidSaveTextDocumentParams) -> None:
    ls.analyses.saved(params.text_document.uri)


@guarded()
async def did_close(ls: EvalsubmitServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.analyses.closed(params.text_document.uri)


@guarded()
async def did_change_watched_files(
    ls: EvalsubmitServer, params: types.DidChangeWatchedFilesParams
) -> None:
    created_or_deleted = any(c.type != types.FileChangeType.Changed for c in params.changes)
    paths = [uri_to_path(change.uri) for change in params.changes]
    python = any(path.suffix in SUFFIXES for path in paths)  # a project's files, notebooks too
    for project in ls.session.projects.all():
        if created_or_deleted:
            project.forget_files()  # a module appeared or went away
        elif python:
            project.files_changed()  # what a module stores may have changed
    if any(is_config_file(path) for path in paths):
        log.info("a configuration file changed; re-checking open documents")
        ls.analyses.recheck_all()  # its files are re-read by their mtime at each analysis
    ls.analyses.files_changed(paths)
