"""The evalsubmit language server: the LanguageServer subclass and feature registration only.

Every handler lives in the module of its feature and delegates to the analysis core.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from lsprotocol import types
from pygls.exceptions import FeatureRequestError, JsonRpcMethodNotFound
from pygls.lsp.server import LanguageServer

from evalsubmit.lsp import (
    code_actions,
    code_lens,
    command_table,
    commands,
    configuration,
    diagnostics,
    documents,
    hover,
    logs,
)
from evalsubmit.lsp.commands import package_version
from evalsubmit.lsp.diagnostics import Checker
from evalsubmit.lsp.lifeline import Lifeline
from evalsubmit.lsp.protocol import EvalsubmitProtocol
from evalsubmit.lsp.state import Session

if TYPE_CHECKING:
    from pygls.server import ServerErrors

log = logging.getLogger(__name__)

NAME = "evalsubmit"


class EvalsubmitServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            name=NAME,
            version=package_version("evalsubmit") or "0",
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=EvalsubmitProtocol,
        )
        self.session = Session()
        self.checker = Checker(self, self.session)
        self.log_handler = logs.install(self)
        self.lifeline = Lifeline(stop_server=self.stop)

    def stop(self) -> None:
        """Stop serving (the editor is gone): no new analyses, the read loop ends."""
        self.checker.shutdown()
        self.shutdown()  # type: ignore[no-untyped-call]

    def report_server_error(self, error: Exception, source: ServerErrors) -> None:
        """Internal errors go to the log (window/logMessage), never to a popup."""
        if isinstance(error, JsonRpcMethodNotFound):  # a client probing a feature we lack
            log.debug("%s", error)
        elif source is FeatureRequestError:  # already answered to the client as an error
            log.warning("request failed: %s", error)
        else:
            log.error("internal error (%s): %s", getattr(source, "__name__", source), error)


def create_server() -> EvalsubmitServer:
    ls = EvalsubmitServer()
    feature = ls.feature

    feature(types.INITIALIZE)(configuration.initialize)
    feature(types.INITIALIZED)(configuration.initialized)
    feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)(configuration.did_change_configuration)
    feature(types.WORKSPACE_DID_CHANGE_WORKSPACE_FOLDERS)(configuration.did_change_folders)

    feature(types.TEXT_DOCUMENT_DID_OPEN)(documents.did_open)
    feature(types.TEXT_DOCUMENT_DID_CHANGE)(documents.did_change)
    feature(types.TEXT_DOCUMENT_DID_SAVE)(documents.did_save)
    feature(types.TEXT_DOCUMENT_DID_CLOSE)(documents.did_close)
    feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)(documents.did_change_watched_files)

    feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier=NAME, inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )(diagnostics.text_document_diagnostic)
    feature(types.WORKSPACE_DIAGNOSTIC)(diagnostics.workspace_diagnostic)
    feature(types.TEXT_DOCUMENT_HOVER)(hover.hover)
    feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, code_actions.FIX_ALL]
        ),
    )(code_actions.code_action)
    feature(types.TEXT_DOCUMENT_CODE_LENS, types.CodeLensOptions(resolve_provider=False))(
        code_lens.code_lens
    )

    _command(ls, command_table.SUBMIT.id, commands.run_submit)
    _command(ls, command_table.DEBUG_INFO.id, commands.debug_info)
    _command(ls, command_table.LIST_TASKSETS.id, commands.list_tasksets)
    _command(ls, command_table.JOB_STATUS.id, commands.job_status)
    _command(ls, command_table.PLATFORM_INFO.id, commands.platform_info)

    feature(types.SHUTDOWN)(_shutdown)
    return ls


def _command(ls: EvalsubmitServer, name: str, fn: Callable[..., Awaitable[Any]]) -> None:
    """Register a command taking raw JSON arguments, with failures logged, not raised."""

    @logs.guarded()
    async def command(*args: Any) -> Any:
        return await fn(ls, *args)

    ls.command(name)(command)


def _shutdown(ls: EvalsubmitServer, params: None) -> None:
    ls.checker.shutdown()
