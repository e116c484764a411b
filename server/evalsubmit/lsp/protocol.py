"""pygls protocol subclass: what the editor's messages may rely on, whatever they contain.

* Every request gets an answer: before ``initialize`` an error ``ServerNotInitialized``
  (-32002), after ``shutdown`` an ``InvalidRequest`` (pygls drops both without a word). Requests
  that cannot even be read are answered by :mod:`evalsubmit.lsp.transport` via
  :meth:`EvalsubmitProtocol.reply_error`.
* ``$/cancelRequest`` of a command reaches the command: pygls answers "cancelled" at once but
  lets the command's own task run on (a submission would still post its job). The task of each
  running command is kept by request id and cancelled too.
* The workspace is :class:`~evalsubmit.lsp.text_sync.LspWorkspace`, whose documents split lines
  as the LSP does.
* ``workspace/executeCommand``'s ``workDoneToken`` is available to the command
  (:func:`work_done_token`): pygls passes only ``arguments`` to command handlers.
* ``textDocument/didChange`` is handled at once, as its message is dispatched: the change is
  applied to the workspace and the server's (plain, never awaiting) handler called, without
  pygls's generator, its futures and the task it would make for the handler (all per
  keystroke; the analysis it schedules starts one turn of the event loop sooner). Errors are
  reported as pygls reports a notification's.
* The future of each handler is let go once it is done: pygls 2.1 keeps those of
  notifications, and of each step of its own generator handlers (``didOpen``, ``didChange``,
  ``didClose``...), in ``_request_futures`` under ids made up for them and never removes them
  (a leak per open/close of a document, for the life of the server: docs/reliability.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import inspect
import logging
import sys
from collections.abc import Generator
from concurrent.futures import Future
from typing import TYPE_CHECKING, Any

from cattrs.errors import ClassValidationError
from lsprotocol import types
from pygls.exceptions import FeatureNotificationError, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.feature_manager import is_thread_function
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.json_rpc import (
    JsonRPCNotification,
    JsonRPCProtocol,
    JsonRPCRequestMessage,
    JsonRPCResponseMessage,
    MsgId,
    RPCNotification,
    RPCRequest,
)
from pygls.protocol.language_server import lsp_method

from evalsubmit.lsp.text_sync import LspWorkspace

if TYPE_CHECKING:
    from pygls.protocol.json_rpc import MessageCallback, MessageHandler

log = logging.getLogger(__name__)

SERVER_NOT_INITIALIZED = -32002
INVALID_REQUEST = -32600

EXECUTE_COMMAND_PARAMS: contextvars.ContextVar[types.ExecuteCommandParams | None] = (
    contextvars.ContextVar("evalsubmit_execute_command_params", default=None)
)


class EvalsubmitProtocol(LanguageServerProtocol):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.command_tasks: dict[MsgId, asyncio.Task[Any]] = {}

    # -- answers for every request ------------------------------------------------------------

    def reply_error(self, msg_id: MsgId | None, code: int, message: str) -> None:
        """Answer request ``msg_id`` (None: a request whose id could not be read) with an
        error."""
        error = types.ResponseError(code=code, message=message)
        self._send_data(types.ResponseErrorMessage(id=msg_id, error=error))

    def send_text(self, body: str) -> None:
        """Send a message already written as JSON text (:mod:`evalsubmit.lsp.wire`): what
        pygls's ``_send_data`` does after it serialised a message, with its errors handled
        alike (it would walk the message with the JSON encoder)."""
        if self.writer is None:
            log.error("Unable to send data, no available transport!")
            return
        try:
            header = (
                f"Content-Length: {len(body)}\r\n"
                f"Content-Type: {self.CONTENT_TYPE}; charset={self.CHARSET}\r\n\r\n"
                if self._include_headers
                else ""
            )
            sent = self.writer.write((header + body).encode(self.CHARSET))
            if inspect.isawaitable(sent):
                asyncio.ensure_future(sent)  # noqa: RUF006 (as pygls does; no writer of ours is async)
        except BrokenPipeError:
            log.exception("Error sending data. BrokenPipeError", exc_info=True)
            raise
        except Exception as error:
            log.exception("Error sending data", exc_info=True)
            self._server._report_server_error(error, JsonRpcInternalError)

    def structure_message(self, data: dict[str, Any]) -> Any:
        """pygls's, without its error log (a traceback per bad message, sent to the editor's
        log as an error): the transport answers the request with the reason instead."""
        if "jsonrpc" not in data:
            return data
        try:
            if "id" in data and "error" in data:
                return self._converter.structure(data, types.ResponseErrorMessage)
            if "id" in data and "method" in data:
                kind = self.get_message_type(data["method"]) or JsonRPCRequestMessage
                return self._converter.structure(data, kind)
            if "id" in data:
                kind = self._result_types.pop(data["id"], None) or JsonRPCResponseMessage
                return self._converter.structure(data, kind)
            kind = self.get_message_type(data.get("method", "")) or JsonRPCNotification
            return self._converter.structure(data, kind)
        except ClassValidationError as exc:
            raise JsonRpcInvalidParams() from exc
        except Exception as exc:
            raise JsonRpcInternalError() from exc

    def handle_message(self, message: Any) -> None:
        method = getattr(message, "method", None)
        is_request = isinstance(message, RPCRequest)
        if self._workspace is None and method not in (types.INITIALIZE, types.EXIT):
            if is_request:
                self.reply_error(
                    message.id,
                    SERVER_NOT_INITIALIZED,
                    f"{method}: the server is not initialized yet (send initialize first)",
                )
            elif isinstance(message, RPCNotification):
                log.debug("dropping %s received before initialize", method)
            return
        if is_request and method == types.INITIALIZE and self._workspace is not None:
            self.reply_error(message.id, INVALID_REQUEST, "initialize may only be sent once")
            return
        if is_request and self._shutdown and method != types.EXIT:
            self.reply_error(message.id, INVALID_REQUEST, f"{method}: the server is shutting down")
            return
        if method == types.TEXT_DOCUMENT_DID_CHANGE and self._did_change_now(message):
            return
        super().handle_message(message)

    def _did_change_now(self, message: Any) -> bool:
        """pygls's ``didChange`` (its builtin step, then the server's handler), run now; False
        when pygls must handle it (not a plain notification, after ``shutdown``, or a handler
        that is ``async`` or runs in a thread)."""
        if (
            not isinstance(message, RPCNotification)
            or message.jsonrpc != JsonRPCProtocol.VERSION
            or self._shutdown
        ):
            return False
        handler = self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)
        if handler is not None and (
            asyncio.iscoroutinefunction(handler) or is_thread_function(handler)  # type: ignore[no-untyped-call]
        ):
            return False
        params = message.params
        try:
            for change in params.content_changes:
                self.workspace.update_text_document(params.text_document, change)
            if handler is not None:
                handler(params)
        except Exception:
            error = JsonRpcInternalError.of(sys.exc_info())  # type: ignore[no-untyped-call]
            self._server._report_server_error(error, FeatureNotificationError)
        return True

    # -- handled messages leave nothing behind ------------------------------------------------

    def _execute_handler(
        self,
        msg_id: MsgId,
        handler: MessageHandler,
        callback: MessageCallback,
        args: tuple[Any, ...] | None = None,
        kwargs: dict[str, Any] | None = None,
    ) -> None:
        super()._execute_handler(msg_id, handler, callback, args, kwargs)
        # Kept until done, not dropped now: the dict holds the only strong reference to the
        # handler's task (asyncio keeps weak ones). Done, it serves nothing: only a cancel looks
        # futures up there, and a request's answer has already removed its own.
        future = self._request_futures.get(msg_id)
        if future is not None:
            future.add_done_callback(functools.partial(self._forget_future, msg_id))

    def _forget_future(self, msg_id: MsgId, future: Future[Any]) -> None:
        if future.cancelled():
            # cancelled by `shutdown` while it iterates this dict (a thread's future runs its
            # callbacks at once): leave it; cancellations are rare, the process ends next
            return
        if self._request_futures.get(msg_id) is future:  # not a newer request reusing the id
            del self._request_futures[msg_id]

    # -- cancellation reaches commands --------------------------------------------------------

    def _handle_cancel_notification(self, msg_id: MsgId) -> None:
        task = self.command_tasks.pop(msg_id, None)
        if task is not None and not task.done():
            log.info("request %s cancelled by the editor: stopping its command", msg_id)
            task.cancel()
        super()._handle_cancel_notification(msg_id)

    def track_command(self) -> None:
        """Called by a command's own task: its request can now be cancelled."""
        task, msg_id = asyncio.current_task(), self.msg_id
        if task is not None and msg_id is not None:
            self.command_tasks[msg_id] = task
            task.add_done_callback(lambda _: self.command_tasks.pop(msg_id, None))

    # -- builtin features -----------------------------------------------------------------------

    @lsp_method(types.INITIALIZE)
    def lsp_initialize(self, params: types.InitializeParams) -> Generator[Any, Any, Any]:
        steps = super().lsp_initialize(params)
        try:
            step = next(steps)  # pygls has made its workspace; no document exists yet
        except StopIteration as done:
            self._workspace = LspWorkspace.like(self.workspace)
            return done.value
        self._workspace = LspWorkspace.like(self.workspace)
        while True:
            sent = yield step
            try:
                step = steps.send(sent)
            except StopIteration as done:
                return done.value

    @lsp_method(types.WORKSPACE_EXECUTE_COMMAND)
    def lsp_workspace__execute_command(
        self, params: types.ExecuteCommandParams
    ) -> Generator[Any, Any, Any]:
        # The handler's task is created while this generator runs, so it inherits the value.
        EXECUTE_COMMAND_PARAMS.set(params)
        return (yield from super().lsp_workspace__execute_command(params))


def work_done_token() -> types.ProgressToken | None:
    params = EXECUTE_COMMAND_PARAMS.get()
    return params.work_done_token if params is not None else None
