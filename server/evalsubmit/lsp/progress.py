"""One work-done progress for a long command (``evalsubmit.submit``): on the client's token when
the request carried one, else a server-created one (when the client supports it), else silent.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from evalsubmit.lsp.protocol import work_done_token

if TYPE_CHECKING:
    from evalsubmit.lsp.editor import Editor

log = logging.getLogger(__name__)


class Progress:
    """One work-done progress (which one: the module's docstring); ``cancel_signal`` completes
    when the user cancels it."""

    def __init__(self, editor: Editor, title: str) -> None:
        self._editor, self._title = editor, title
        self._token: types.ProgressToken | None = work_done_token()
        self.cancel_signal: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    @property
    def cancelled(self) -> bool:
        return self.cancel_signal.done()

    async def __aenter__(self) -> Progress:
        progress = self._editor.progress
        if self._token is None and self._editor.supports_progress:
            token = f"evalsubmit-submit-{uuid.uuid4().hex[:12]}"
            try:
                await asyncio.wait_for(progress.create_async(token), 5.0)
                self._token = token
            except Exception as exc:
                log.debug("no work-done progress: %r", exc)
        if self._token is None:
            return self
        progress.begin(
            self._token, types.WorkDoneProgressBegin(title=self._title, cancellable=True)
        )
        cancel = asyncio.wrap_future(progress.tokens[self._token])
        cancel.add_done_callback(lambda _: self._cancel())
        return self

    def _cancel(self) -> None:
        if not self.cancel_signal.done():
            self.cancel_signal.set_result(None)

    def report(self, message: str) -> None:
        log.info("%s", message)
        if self._token is not None:
            self._editor.progress.report(self._token, types.WorkDoneProgressReport(message=message))

    async def __aexit__(self, *exc: object) -> None:
        if self._token is None:
            return
        self._editor.progress.end(self._token, types.WorkDoneProgressEnd())
        self._editor.progress.tokens.pop(self._token, None)
