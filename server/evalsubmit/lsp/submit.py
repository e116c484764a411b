"""``evalsubmit.submit``: send a runner to the NeMo Platform as a governed job (issue 4).

Phase 2: the platform client lives in :mod:`evalsubmit.platform`. Until this module is filled
in, the command answers with a clear message instead of failing.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from lsprotocol import types

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

log = logging.getLogger(__name__)


async def run_submit(ls: EvalsubmitServer, args: tuple[Any, ...]) -> dict[str, Any]:
    message = "evalsubmit: submitting from the editor is not available in this version yet."
    ls.window_show_message(types.ShowMessageParams(type=types.MessageType.Warning, message=message))
    log.info("evalsubmit.submit called with %r: not implemented yet", args)
    return {"submitted": False, "reason": message}
