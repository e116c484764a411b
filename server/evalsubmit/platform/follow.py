"""Following a job: poll its status and report each change until it ends."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

from .client import TRANSIENT_KINDS, PlatformClient
from .errors import PlatformError
from .models import JobStatus


async def follow_job(
    client: PlatformClient,
    workspace: str,
    name: str,
    poll_interval_s: float = 2.0,
    *,
    max_consecutive_errors: int = 3,
) -> AsyncIterator[JobStatus]:
    """Yield the job's status at the start and on every change, until a terminal status.

    Transient failures of a poll (timeout, connection, 5xx) are retried up to
    `max_consecutive_errors` times in a row before the `PlatformError` propagates.
    """
    last: str | None = None
    errors = 0
    while True:
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
