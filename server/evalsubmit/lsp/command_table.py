"""The server's commands (``workspace/executeCommand``): ids and titles, stated once. The VS
Code client calls these ids (its own command palette entries wrap them) and must not register
them itself."""

from __future__ import annotations

from evalsubmit.core.records import record


@record
class ServerCommand:
    id: str
    title: str


SUBMIT = ServerCommand("evalsubmit.submit", "Submit evaluation")
DEBUG_INFO = ServerCommand("evalsubmit.debugInfo", "Debug info")
LIST_TASKSETS = ServerCommand("evalsubmit.listTasksets", "List tasksets")
JOB_STATUS = ServerCommand("evalsubmit.jobStatus", "Job status")
PLATFORM_INFO = ServerCommand("evalsubmit.platformInfo", "Platform info")

SUBMIT_LENS_TITLE = f"▶ {SUBMIT.title}"
