"""Server commands (``workspace/executeCommand``). The ids are fixed: the VS Code client calls
them and must not register them itself.
"""

from __future__ import annotations

import importlib.metadata
import json
import logging
import platform
import sys
from typing import TYPE_CHECKING, Any

from evalsubmit.analysis.rules import RULES
from evalsubmit.lsp import submit

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

log = logging.getLogger(__name__)

SUBMIT = "evalsubmit.submit"
DEBUG_INFO = "evalsubmit.debugInfo"
LIST_TASKSETS = "evalsubmit.listTasksets"
JOB_STATUS = "evalsubmit.jobStatus"
COMMANDS = (SUBMIT, DEBUG_INFO, LIST_TASKSETS, JOB_STATUS)

_PACKAGES = ("evalsubmit", "pygls", "lsprotocol", "pydantic", "httpx")


async def run_submit(ls: EvalsubmitServer, *args: Any) -> Any:
    return await submit.run_submit(ls, args)


async def debug_info(ls: EvalsubmitServer, *args: Any) -> dict[str, Any]:
    """Versions, settings in effect (token redacted) and open documents; also logged."""
    session = ls.session
    documents = []
    for state in session.documents.values():
        snap = state.latest
        documents.append(
            {
                "uri": state.uri,
                "version": state.version,
                "analysedVersion": snap.version if snap else None,
                "findings": [f.code for f in snap.report.findings] if snap else None,
                "skipped": snap.report.skipped if snap else None,
                "dependencies": sorted(str(p) for p in snap.report.dependencies) if snap else [],
            }
        )
    info = {
        "versions": {
            "python": sys.version.split()[0],
            "platform": platform.platform(),
            **{name: _version(name) for name in _PACKAGES},
        },
        "server": {
            "diagnostics": "pull" if session.pull_diagnostics else "push",
            "positionEncoding": str(session.encoding),
            "rules": sorted(RULES),
        },
        "settings": {
            "global": session.settings.global_settings.redacted(),
            "folders": {uri: s.redacted() for uri, s in session.settings.folders.items()},
        },
        "documents": documents,
    }
    log.info("debug info:\n%s", json.dumps(info, indent=2))
    return info


async def not_yet(ls: EvalsubmitServer, *args: Any) -> dict[str, Any]:
    return {"error": "not available in this version yet"}


def _version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return None
