"""Following a job: poll its status and report each change until it ends."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

from .client import TRANSIENT_KINDS, PlatformClient
from .errors import PlatformError, PlatformErrorKind
from .models import JobStatus

DEFAULT_FOLLOW_LIMIT_S = 3600.0
"""As long as the SDK's ``wait_until_done`` waits by default (``job_timeout_seconds``)."""


async def follow_job(
    client: PlatformClient,
    workspace: str,
    name: str,
    poll_interval_s: float = 2.0,
    *,
    max_consecutive_errors: int = 3,
    limit_s: float = DEFAULT_FOLLOW_LIMIT_S,
) -> AsyncIterator[JobStatus]:
    """Yield the job's status at the start and on every change, until a terminal status.

    Transient failures of a poll (timeout, connection, 5xx) are retried up to
    `max_consecutive_errors` times in a row before the `PlatformError` propagates. After
    `limit_s` seconds without a terminal status, a `PlatformError` (kind `timeout`) says that
    following stopped; the job itself is not touched.
    """
    last: str | None = None
    errors = 0
    deadline = time.monotonic() + limit_s
    while True:
        if time.monotonic() >= deadline:
            raise PlatformError(
                PlatformErrorKind.TIMEOUT,
                f"evalsubmit stopped following it after {limit_s:g} s (last status: "
                f"{last or 'unknown'}); it may still be running. Check "
                f"{client.job_url(workspace, name)}.",
            )
        try:
            status = await client.get_status(workspace, name)
        except PlatformError as err:
            errors += 1
            if err.kind not in TRANSIENT_KINDS or errors > max_consecutive_errors:
                raise
            await asyncio.sleep(poll_interval_s)
            continue
        errors = 0
        if status.status != last:
            last = status.status
            yield status
        if status.is_terminal:
            return
        await asyncio.sleep(poll_interval_s)
