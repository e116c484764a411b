"""What a handler may ask of the editor: show a message, ask a question, log a line, show a
work-done progress. Handlers get this (in their :class:`.requests.Context`), never the server:
everything else the server holds is the session's, and changes under a handler's feet.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from lsprotocol import types

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer
    from pygls.progress import Progress as WorkDoneProgress

log = logging.getLogger(__name__)


class Editor:
    def __init__(self, server: LanguageServer, warned: set[str]) -> None:
        self._server = server
        self._warned = warned
        """The keys :meth:`once` has seen, for the whole session."""

    def show(self, kind: types.MessageType, message: str) -> None:
        """A message popup (``window/showMessage``), also logged."""
        log.info("%s", message)
        self._server.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def once(self, key: str) -> bool:
        """Whether this is the first time ``key`` comes up in the session (a warning shown once,
        then only logged)."""
        if key in self._warned:
            return False
        self._warned.add(key)
        return True

    def log(self, kind: types.MessageType, message: str) -> None:
        """A line in the editor's output channel (``window/logMessage``)."""
        self._server.window_log_message(types.LogMessageParams(type=kind, message=message))

    async def ask(self, params: types.ShowMessageRequestParams) -> types.MessageActionItem | None:
        """``window/showMessageRequest``: the action chosen, or None."""
        return await self._server.window_show_message_request_async(params)

    @property
    def progress(self) -> WorkDoneProgress:
        """pygls's work-done progress of the connection."""
        return self._server.work_done_progress

    @property
    def supports_progress(self) -> bool:
        """The client shows a progress the server creates (``window.workDoneProgress``)."""
        window = self._server.client_capabilities.window
        return bool(window is not None and window.work_done_progress)
