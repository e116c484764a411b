"""pygls protocol subclass: exposes the ``workDoneToken`` of ``workspace/executeCommand``.

pygls passes only ``arguments`` to command handlers; a command that reports progress on the
client's token (VS Code's client sends one with ``evalsubmit.submit``) reads it from
:data:`EXECUTE_COMMAND_PARAMS`, set for the duration of the command's task.
"""

from __future__ import annotations

import contextvars
from collections.abc import Generator
from typing import Any

from lsprotocol import types
from pygls.protocol import LanguageServerProtocol
from pygls.protocol.language_server import lsp_method

EXECUTE_COMMAND_PARAMS: contextvars.ContextVar[types.ExecuteCommandParams | None] = (
    contextvars.ContextVar("evalsubmit_execute_command_params", default=None)
)


class EvalsubmitProtocol(LanguageServerProtocol):
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
