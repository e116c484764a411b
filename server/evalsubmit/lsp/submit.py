"""``evalsubmit.submit``: the editor's "Submit evaluation", an LSP adapter over
:mod:`evalsubmit.platform.submission` (the decision and the sending, shared with ``evalsubmit
submit``).

What is the editor's own: the document snapshot and position conversion, asking for a taskset
(``window/showMessageRequest``), one work-done progress through status polling
(:mod:`.job_follow`), window messages, and the editor's cancel: a cancel before the POST sends
nothing; after it, the user learns that the job exists and is offered to cancel it. The final
message names the job, its status and URL (and, on ``error``, the platform's details and the
last log lines).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from evalsubmit.core.records import record
from evalsubmit.lsp import convert
from evalsubmit.lsp.command_table import SUBMIT
from evalsubmit.lsp.job_follow import follow, in_background, offer_cancel
from evalsubmit.lsp.progress import Progress
from evalsubmit.lsp.settings import Settings
from evalsubmit.lsp.snapshot import Analysis, Snapshot
from evalsubmit.platform import (
    Job,
    PlatformClient,
    PlatformError,
    ResolvedPlatformConfig,
    job_outcome,
    resolve_platform_config,
    submission,
)
from evalsubmit.platform.config import SOURCE_CODE, SOURCE_SETTING
from evalsubmit.platform.submission import Plan, Refusal, Submission

if TYPE_CHECKING:
    from evalsubmit.lsp.editor import Editor
    from evalsubmit.lsp.requests import Context

log = logging.getLogger(__name__)

SUBMIT_WAIT_S = 15.0
"""Submit waits this long for the analysis of the present text (it never uses an older one)."""
NAME_A_TASKSET = "name one with tasks=, choose one when asked, or set evalsubmit.defaultTaskset"
MAX_TASKSET_CHOICES = 20
NOTHING_SENT = "evalsubmit: submission cancelled; nothing was sent."


@record
class Request:
    uri: str
    line: int
    character: int
    tasks: str | None
    client_reports_outcome: bool = False


def parse_request(args: tuple[Any, ...]) -> Request | str:
    first = args[0] if args else None
    if not isinstance(first, Mapping):
        return 'expected one argument {"uri", "line", "character", "tasks"}'
    uri, line, character, tasks = (first.get(k) for k in ("uri", "line", "character", "tasks"))
    if not isinstance(uri, str) or not isinstance(line, int) or not isinstance(character, int):
        return '"uri" (string), "line" and "character" (0-based integers) are required'
    if tasks is not None and not isinstance(tasks, str):
        return '"tasks" must be a taskset reference string or null'
    quiet = first.get("clientReportsOutcome") is True  # the client shows the outcome itself
    return Request(uri, line, character, tasks.strip() if tasks else None, quiet)


def plan(snap: Analysis, line: int, col: int, tasks_arg: str | None) -> Plan | Refusal:
    """The shared decision (:func:`evalsubmit.platform.submission.plan`) for a document, with
    the folder's ``defaultTaskset``."""
    return submission.plan(
        snap.report,
        line,
        col,
        tasks_arg,
        default_taskset=snap.effective.default_taskset,
        name_a_taskset=NAME_A_TASKSET,
    )


def workspace_in_code(snap: Analysis | None, line: int | None = None) -> str | None:
    """The workspace the document's code names for a submission at 1-based `line`."""
    return None if snap is None else submission.workspace_in_code(snap.report, line)


def nearby_taskset(snap: Analysis, line: int) -> str | None:
    """The taskset reference written closest to 1-based `line` (pre-fills the prompt)."""
    return submission.nearby_taskset(snap.report, snap.lines, line)


def workspace_source(source: str) -> str:
    """Where a resolved workspace comes from, in the words the hover uses."""
    words = {SOURCE_CODE: "the code", SOURCE_SETTING: "the evalsubmit settings"}
    return words.get(source, source)


def platform_config(settings: Settings, code_workspace: str | None) -> ResolvedPlatformConfig:
    return resolve_platform_config(settings.platform, code_workspace=code_workspace)


# -- the command --------------------------------------------------------------------------------


async def run_submit(
    snapshot: Snapshot | None, context: Context, args: tuple[Any, ...]
) -> dict[str, Any]:
    editor = context.editor
    request = parse_request(args)
    if isinstance(request, str):
        return _refuse(editor, Refusal((request,)))
    snap = snapshot.analysis if snapshot is not None else None
    if snapshot is None or snap is None:
        return _refuse(editor, Refusal(("the document is not open in the editor",)))
    if not snapshot.fresh:
        # Never submit what an older text said: the position may point elsewhere now.
        return _refuse(editor, Refusal(("the document is still being analysed; try again",)))
    try:
        position = types.Position(line=request.line, character=request.character)
        line, col = convert.core_position(position, snap.lines, context.encoding)
        decided = plan(snap, line, col, request.tasks)
        if isinstance(decided, Refusal) and decided.needs_taskset:
            chosen, problem = await _ask_taskset(context, snap, line)
            if chosen is not None:
                decided = plan(snap, line, col, chosen)
            elif problem is not None:
                decided = Refusal((*decided.reasons, problem))
        if isinstance(decided, Refusal):
            return _refuse(editor, decided)
        config = await context.in_pool(platform_config, snap.settings, decided.code_workspace)
    except asyncio.CancelledError:
        nothing_sent(context)
        raise
    async with Progress(editor, f"{SUBMIT.title}: {decided.tasks}") as progress:
        return await _submit(editor, decided, config, snap.settings, progress, request)


def nothing_sent(context: Context) -> None:
    """The request was cancelled before anything was sent."""
    context.editor.show(types.MessageType.Info, NOTHING_SENT)


async def _ask_taskset(
    context: Context, snap: Analysis, line: int
) -> tuple[str | None, str | None]:
    """No taskset is known (an editor without the VS Code client's prompt): ask with
    ``window/showMessageRequest``, one button per taskset of the workspace the code's job would
    go to. Returns (the reference chosen, or None; why none could be offered, or None)."""
    code = workspace_in_code(snap, line)
    config = await context.in_pool(platform_config, snap.settings, code)
    try:
        async with open_client(context.editor, config) as client:
            found = await client.list_tasksets(config.workspace)
    except PlatformError as err:
        return None, f"the tasksets could not be listed: {err.message}"
    if not found:
        return None, f"workspace {config.workspace} has no taskset"
    try:
        answer = await context.editor.ask(
            types.ShowMessageRequestParams(
                type=types.MessageType.Info,
                message=f"{SUBMIT.title}: which taskset of workspace {config.workspace}?",
                actions=[types.MessageActionItem(title=t.ref) for t in found[:MAX_TASKSET_CHOICES]],
            )
        )
    except Exception as exc:
        log.warning("could not ask for the taskset: %r", exc)
        return None, None
    return (answer.title if answer is not None else None), None


def open_client(editor: Editor, config: ResolvedPlatformConfig) -> PlatformClient:
    """A client for ``config`` (raises ``PlatformError`` for settings that cannot be used). A
    token about to travel unencrypted to another machine is a warning, once per address."""
    client = PlatformClient.from_config(config)
    if client.warning is not None:
        if editor.once(client.base_url):
            editor.show(types.MessageType.Warning, f"evalsubmit: {client.warning}")
        else:
            log.warning("%s: %s", client.shown_url, client.warning)
    return client


async def _submit(
    editor: Editor,
    decided: Plan,
    config: ResolvedPlatformConfig,
    settings: Settings,
    progress: Progress,
    request: Request,
) -> dict[str, Any]:
    try:
        client = open_client(editor, config)
    except PlatformError as err:
        return _failed(editor, err.message)
    sending = Submission(decided, config, client)
    workspace = sending.workspace
    log.info("%s", sending.describe())
    async with client:
        try:
            job = await sending.send(
                step=progress.report,
                cancelled=lambda: progress.cancelled,
                after_cancel=lambda job, err: _after_cancel(editor, config, job, err),
            )
        except PlatformError as err:
            return _failed(editor, err.message)
        if job is None:
            return _refuse(editor, Refusal(("cancelled before anything was sent",)))
        url = client.job_url(workspace, job.name)
        editor.log(types.MessageType.Info, f"job {job.name}: {url}")
        interval = settings.platform.poll_interval_s
        final = await follow(editor, config, client, job.name, interval, progress)
        if final is None:
            return _result(job.name, workspace, job.status or "created", url)
        outcome = await job_outcome(client, workspace, final)
        kind = types.MessageType.Info if outcome.succeeded else types.MessageType.Error
        if final.status == "cancelled":
            kind = types.MessageType.Warning
        if request.client_reports_outcome:
            log.info("%s", outcome.message())
        else:
            editor.show(kind, outcome.message())
        told = {"error": outcome.error, "details": outcome.details, "message": outcome.message()}
        return {**_result(job.name, workspace, final.status, url), "outcome": told}


def _after_cancel(
    editor: Editor,
    config: ResolvedPlatformConfig,
    job: Job | None,
    err: PlatformError | None,
) -> None:
    """The request was cancelled while sending: before the POST nothing was sent; after it the
    job exists, and the user is offered to cancel it on the platform."""
    if err is not None:
        editor.show(types.MessageType.Warning, f"evalsubmit: cancelled; {err.message}")
    elif job is None:
        editor.show(types.MessageType.Info, NOTHING_SENT)
    else:
        in_background(offer_cancel(editor, config, job.name, None, after_cancel=True))
        log.info("cancelled after job %s was posted", job.name)


def _result(name: str, workspace: str, status: str, url: str) -> dict[str, Any]:
    return {"submitted": True, "name": name, "workspace": workspace, "status": status, "url": url}


def _refuse(editor: Editor, refusal: Refusal) -> dict[str, Any]:
    editor.show(types.MessageType.Warning, f"evalsubmit: {refusal.message()}")
    return {"submitted": False, "reason": "; ".join(refusal.reasons)}


def _failed(editor: Editor, message: str) -> dict[str, Any]:
    editor.show(types.MessageType.Error, f"evalsubmit: {message}")
    return {"submitted": False, "reason": message}
