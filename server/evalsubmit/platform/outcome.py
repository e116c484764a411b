"""The final word on a followed job: status, platform message, the error and the last log lines."""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import field

from evalsubmit.core.records import record

from .client import PlatformClient
from .errors import PlatformError
from .models import JobStatus

# "RuntimeError: The 'gym' CLI was not found on PATH. ..." at the end of a traceback message.
_EXCEPTION = re.compile(r"(?:^|\s)((?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Exit)): (.+)$")
MAX_ERROR_CHARS = 400


def extract_error(lines: list[str]) -> str | None:
    """The last `SomeError: message` found in the log lines (tracebacks are one log message)."""
    for line in reversed(lines):
        match = _EXCEPTION.search(line.strip())
        if match:
            text = f"{match.group(1)}: {match.group(2).strip()}"
            return text if len(text) <= MAX_ERROR_CHARS else text[: MAX_ERROR_CHARS - 1] + "…"
    return None


@record(slots=False)
class JobOutcome:
    """What to tell the user when a job has reached a terminal status."""

    name: str
    workspace: str
    status: str
    url: str
    details: str | None = None
    error: str | None = None
    log_tail: list[str] = field(default_factory=list)
    log_problem: str | None = None

    @property
    def succeeded(self) -> bool:
        return self.status == "completed"

    def message(self, *, include_logs: bool = True) -> str:
        head = f"Job {self.name} (workspace {self.workspace}) ended: {self.status}."
        parts = [head]
        if self.details:
            parts.append(f"Platform: {self.details}.")
        if self.error:
            parts.append(f"Error: {self.error}")
        parts.append(f"URL: {self.url}")
        text = " ".join(parts)
        if include_logs and self.log_tail:
            text += "\nLast log lines:\n" + "\n".join(self.log_tail)
        elif include_logs and self.log_problem:
            text += f"\n(Logs unavailable: {self.log_problem})"
        return text


async def job_outcome(
    client: PlatformClient,
    workspace: str,
    status: JobStatus,
    *,
    log_lines: int = 20,
    settle_s: float = 5.0,
) -> JobOutcome:
    """Collect the outcome of a finished job; logs are fetched unless it completed.

    The platform collects a job's logs asynchronously, so its last lines (the traceback) can
    arrive a moment after the status turned terminal: while no error line is found, the logs
    are read again, once a second, for up to `settle_s` seconds."""
    details_map = status.error_details or status.status_details or {}
    details = details_map.get("message") if isinstance(details_map, dict) else None
    tail: list[str] = []
    problem: str | None = None
    if not status.succeeded:
        deadline = time.monotonic() + settle_s
        while True:
            try:
                tail = await client.get_logs(workspace, status.name, tail=log_lines)
            except PlatformError as err:
                problem = err.message
                break
            if extract_error(tail) is not None or time.monotonic() >= deadline:
                break
            await asyncio.sleep(1.0)
    return JobOutcome(
        name=status.name,
        workspace=workspace,
        status=status.status,
        url=client.job_url(workspace, status.name),
        details=str(details) if details else None,
        error=extract_error(tail),
        log_tail=tail,
        log_problem=problem,
    )
