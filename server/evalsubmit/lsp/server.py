"""The evalsubmit language server: the LanguageServer subclass and feature registration only.

Every handler lives in the module of its feature and delegates to the analysis core.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from typing import TYPE_CHECKING, Any, BinaryIO

from lsprotocol import types
from pygls.exceptions import FeatureRequestError, JsonRpcMethodNotFound
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from evalsubmit.lsp import (
    cell_features,
    code_actions,
    code_lens,
    command_table,
    commands,
    completion,
    configuration,
    diagnostics,
    documents,
    hover,
    logs,
    notebook_sync,
    submit,
    transport,
)
from evalsubmit.lsp.analyses import Analyses
from evalsubmit.lsp.commands import package_version
from evalsubmit.lsp.lifeline import Lifeline
from evalsubmit.lsp.protocol import EvalsubmitProtocol
from evalsubmit.lsp.requests import Requests, Wait
from evalsubmit.lsp.state import Session
from evalsubmit.platform.catalog import Catalog

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
            notebook_document_sync=notebook_sync.NOTEBOOK_SYNC,
        )
        self.session = Session()
        self.catalog = Catalog()
        """The platform's tasksets and workspaces completion offers, kept for a short time."""
        self.analyses = Analyses(self, self.session)
        self.requests = Requests(self, self.session, self.analyses, self.catalog)
        """Registers the document request handlers: they get a snapshot, never the server."""
        self.log_handler = logs.install(self)
        self.lifeline = Lifeline(stop_server=self.stop)
        self._chunks: transport.StreamChunks | transport.ReadyChunks | None = None

    @property
    def protocol_(self) -> EvalsubmitProtocol:
        assert isinstance(self.protocol, EvalsubmitProtocol)
        return self.protocol

    def stop(self) -> None:
        """Stop serving (the editor is gone): no new analyses, the read loop ends."""
        self.analyses.shutdown()
        self.shutdown()  # type: ignore[no-untyped-call]
        if self._chunks is not None:
            self._chunks.end()

    def serve_stdio(self, stdin: BinaryIO, stdout: BinaryIO) -> int:
        """Serve over stdin/stdout with evalsubmit's reader (:mod:`evalsubmit.lsp.transport`),
        not pygls's. Returns the process's exit code: 1 when the stream could not be read on
        (the reason is logged), else what ``exit`` asked for."""
        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(stdout))
        reason: str | None = None
        code = 0
        try:
            reason = asyncio.run(self._read_stdio(stdin))
        except BrokenPipeError:
            log.error("the connection to the editor is lost; exiting")
        except SystemExit as exit_:  # the `exit` notification
            code = exit_.code if isinstance(exit_.code, int) else 0
        except KeyboardInterrupt:
            pass
        finally:
            self.shutdown()  # type: ignore[no-untyped-call]
        if reason is not None:
            logs.to_stderr(f"evalsubmit: exiting: {reason}")
            return 1
        return code

    async def _read_stdio(self, stdin: BinaryIO) -> str | None:
        assert self._stop_event is not None
        self._chunks = transport.stdin_chunks(stdin, asyncio.get_running_loop())
        if isinstance(self._chunks, transport.ReadyChunks):
            self.lifeline.watch_hang_up(self._chunks.hung_up)
        return await transport.serve(self.protocol_, self._chunks, self._stop_event)

    def serve_tcp(self, host: str, port: int) -> int:
        """Serve one editor at a time over TCP, with the same reader as :meth:`serve_stdio`."""
        self._stop_event = stop_event = threading.Event()

        async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            self.protocol.set_writer(writer)
            chunk = functools.partial(reader.read, transport.READ_CHUNK)
            await transport.serve(self.protocol_, chunk, stop_event)
            writer.close()
            self.shutdown()  # type: ignore[no-untyped-call]

        async def main() -> None:
            self._server = server = await asyncio.start_server(connection, host, port)
            log.info("serving on %s:%s", host, port)
            async with server:
                await server.serve_forever()

        with contextlib.suppress(KeyboardInterrupt, SystemExit, asyncio.CancelledError):
            asyncio.run(main())
        return 0

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
    feature(types.NOTEBOOK_DOCUMENT_DID_OPEN)(notebook_sync.did_open)
    feature(types.NOTEBOOK_DOCUMENT_DID_CHANGE)(notebook_sync.did_change)
    feature(types.NOTEBOOK_DOCUMENT_DID_SAVE)(notebook_sync.did_save)
    feature(types.NOTEBOOK_DOCUMENT_DID_CLOSE)(notebook_sync.did_close)

    document_pull, workspace_pull = diagnostics.pull_handlers(ls.analyses, ls.session)
    feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(
            identifier=NAME, inter_file_dependencies=True, workspace_diagnostics=True
        ),
    )(document_pull)
    feature(types.WORKSPACE_DIAGNOSTIC)(workspace_pull)
    requests = ls.requests
    requests.document(types.TEXT_DOCUMENT_HOVER, hover.hover, cells=cell_features.hover_on_cells)
    requests.document(
        types.TEXT_DOCUMENT_CODE_ACTION,
        code_actions.code_action,
        options=types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, code_actions.FIX_ALL]
        ),
        cells=cell_features.code_actions_on_cells,
    )
    requests.document(
        types.TEXT_DOCUMENT_CODE_LENS,
        code_lens.code_lens,
        options=types.CodeLensOptions(resolve_provider=False),
        cells=cell_features.code_lens_on_cells,
    )
    requests.document(
        types.TEXT_DOCUMENT_COMPLETION,
        completion.completion,
        options=types.CompletionOptions(trigger_characters=completion.TRIGGER_CHARACTERS),
        wait=Wait.LATEST,
    )
    requests.document(
        types.TEXT_DOCUMENT_SIGNATURE_HELP,
        completion.signature_help,
        options=types.SignatureHelpOptions(
            trigger_characters=completion.SIGNATURE_TRIGGERS,
            retrigger_characters=completion.SIGNATURE_RETRIGGERS,
        ),
        wait=Wait.LATEST,
    )

    cells = cell_features.command_on_cells
    requests.command(
        command_table.SUBMIT.id,
        submit.run_submit,
        cells=cells,
        wait_s=submit.SUBMIT_WAIT_S,
        on_cancel=submit.nothing_sent,
    )
    requests.command(command_table.LIST_TASKSETS.id, commands.list_tasksets, cells=cells)
    requests.command(command_table.JOB_STATUS.id, commands.job_status)
    requests.command(command_table.PLATFORM_INFO.id, commands.platform_info, cells=cells)
    _debug_info(ls)

    feature(types.SHUTDOWN)(_shutdown)
    return ls


def _debug_info(ls: EvalsubmitServer) -> None:
    """Register debugInfo: what the whole session holds, not one document's snapshot (failures
    logged, not raised)."""

    @logs.guarded()
    async def debug_info(*args: Any) -> Any:
        ls.protocol_.track_command()  # so that $/cancelRequest reaches it
        return await commands.debug_info(
            ls.session, ls.analyses, lambda uri: ls.workspace.get_text_document(uri).source
        )

    ls.command(command_table.DEBUG_INFO.id)(debug_info)


def _shutdown(ls: EvalsubmitServer, params: None) -> None:
    ls.analyses.shutdown()
