"""After a job is posted: following its status, and offering to cancel it on the platform when
the user stops following (or cancels the request after the job was created)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from evalsubmit.lsp.progress import Progress
from evalsubmit.platform import (
    JobStatus,
    PlatformClient,
    PlatformError,
    ResolvedPlatformConfig,
    follow_job,
)
from evalsubmit.platform.submission import state_words

if TYPE_CHECKING:
    from evalsubmit.lsp.editor import Editor

log = logging.getLogger(__name__)

CANCEL_JOB = "Cancel the job"
KEEP_JOB = "Keep it running"
_BACKGROUND: set[asyncio.Future[None]] = set()


def in_background(work: Coroutine[Any, Any, None]) -> None:
    task = asyncio.ensure_future(work)
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


async def follow(
    editor: Editor,
    config: ResolvedPlatformConfig,
    client: PlatformClient,
    name: str,
    interval: float,
    progress: Progress,
) -> JobStatus | None:
    """Poll until a terminal status; None when the user stopped following (or polling failed).
    Following ends after ``follow_job``'s limit (an hour) whatever the job does; the job runs on."""
    workspace = config.workspace
    final: JobStatus | None = None

    async def poll() -> None:
        nonlocal final
        async for status in follow_job(client, workspace, name, interval):
            final = status
            progress.report(f"job {name}: {state_words(status)}")

    task = asyncio.ensure_future(poll())
    try:
        await asyncio.wait({task, progress.cancel_signal}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:  # the client cancelled the request itself
        task.cancel()
        in_background(offer_cancel(editor, config, name, final, after_cancel=True))
        raise
    if task.done():
        try:
            task.result()
        except PlatformError as err:
            editor.show(types.MessageType.Error, f"Job {name} was submitted, but {err.message}")
            return None
        return final
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError, PlatformError):
        await task
    await offer_cancel(editor, config, name, final)
    return None


async def offer_cancel(
    editor: Editor,
    config: ResolvedPlatformConfig,
    name: str,
    last: JobStatus | None,
    *,
    after_cancel: bool = False,
) -> None:
    """The user stopped following: ask whether to cancel the job itself, and do it."""
    status, workspace = (last.status if last is not None else "submitted"), config.workspace
    try:
        client = PlatformClient.from_config(config)
    except PlatformError as err:
        editor.show(types.MessageType.Error, f"Job {name} exists, but {err.message}")
        return
    async with client:
        url = client.job_url(workspace, name)
        stopped = (
            f"The request was cancelled, but job {name} had already been submitted and exists "
            f"on the platform ({status}): {url}."
            if after_cancel
            else f"Stopped following job {name} ({status})."
        )
        try:
            answer = await editor.ask(
                types.ShowMessageRequestParams(
                    type=types.MessageType.Warning,
                    message=f"{stopped} Cancel the job on the platform too?",
                    actions=[
                        types.MessageActionItem(title=CANCEL_JOB),
                        types.MessageActionItem(title=KEEP_JOB),
                    ],
                )
            )
        except Exception as exc:
            log.warning("could not ask whether to cancel job %s: %r", name, exc)
            answer = None
        if answer is None or answer.title != CANCEL_JOB:
            editor.show(types.MessageType.Info, f"Job {name} keeps running ({status}). URL: {url}")
            return
        try:
            job = await client.cancel_job(workspace, name)
        except PlatformError as err:
            editor.show(types.MessageType.Error, f"Could not cancel job {name}: {err.message}")
            return
    editor.show(types.MessageType.Info, f"Job {name}: cancel requested ({job.status}). URL: {url}")
