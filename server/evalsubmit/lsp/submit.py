"""``evalsubmit.submit``: send a Gym runner to the NeMo Platform as an ``agent-evaluate`` job.

Two halves:

* :func:`plan` (pure, no I/O) decides *what* would be submitted from the analysis report: the
  taskset-shaped ``submit()`` call or the Gym runner at the position, its derived target, the
  taskset. It refuses, with reasons, whenever the target is not fully and validly known or the
  call/runner has an error diagnostic: never a guess, never an HTTP request for a refusal.
* :func:`run_submit` executes a plan with the platform client (:mod:`evalsubmit.platform`):
  taskset lookup, submission with a client-generated name, then one work-done progress through
  status polling (:mod:`.job_follow`). A cancel before the POST sends nothing; after it, the
  user learns that the job exists and is offered to cancel it. The final message names the job,
  its status and URL (and, on ``error``, the platform's details and the last log lines).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from evalsubmit.analysis import Severity, Shape, Span, TargetPreview
from evalsubmit.lsp import convert
from evalsubmit.lsp.command_table import SUBMIT
from evalsubmit.lsp.job_follow import follow, in_background, offer_cancel, show
from evalsubmit.lsp.job_follow import state_words as state_words
from evalsubmit.lsp.progress import Progress
from evalsubmit.lsp.settings import Settings
from evalsubmit.lsp.state import Snapshot
from evalsubmit.platform import (
    Job,
    PlatformClient,
    PlatformError,
    ResolvedPlatformConfig,
    build_submission_body,
    job_outcome,
    new_job_name,
    parse_taskset_ref,
    resolve_platform_config,
)
from evalsubmit.platform.config import SOURCE_CODE, SOURCE_SETTING
from evalsubmit.sdk.version import SDK_RELEASE

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

log = logging.getLogger(__name__)

GYM_RUNNER = "GymAgentTaskRunner"
SUBMIT_WAIT_S = 15.0
"""Submit waits this long for the analysis of the present text (it never uses an older one)."""
NO_TASKSET = (
    "no taskset: name one with tasks=, choose one when asked, or set evalsubmit.defaultTaskset"
)
MAX_TASKSET_CHOICES = 20
NOTHING_SENT = "evalsubmit: submission cancelled; nothing was sent."


@dataclass(frozen=True, slots=True)
class Request:
    uri: str
    line: int
    character: int
    tasks: str | None
    client_reports_outcome: bool = False


@dataclass(frozen=True, slots=True)
class Plan:
    """What will be sent: the wire target (exactly the SDK's) and the taskset reference."""

    target: dict[str, Any]
    tasks: str
    code_workspace: str | None
    what: str


@dataclass(frozen=True, slots=True)
class Refusal:
    reasons: tuple[str, ...]
    needs_taskset: bool = False
    """The only reason is that no taskset is known: asking for one can make it a Plan."""

    def message(self) -> str:
        return "Not submitted: " + "; ".join(self.reasons)


@dataclass(frozen=True, slots=True)
class Candidate:
    """A submittable place in a document (for the code lens and the code action)."""

    span: Span
    tasks: str | None
    what: str


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


def candidates(snap: Snapshot) -> list[Candidate]:
    """Taskset-shaped sync submit() calls and Gym runner constructions that would be accepted
    (one per line; a call wins over a runner on the same line)."""
    found: dict[int, Candidate] = {}
    for submit in snap.report.submits:
        ok = submit.shape is Shape.TASKSET and not submit.is_async and submit.target is not None
        if ok and not refusal_reasons(snap, submit.target, submit.span, submit.has_errors):  # type: ignore[arg-type]
            found.setdefault(submit.span.line, Candidate(submit.span, submit.tasks, "call"))
    for preview in snap.report.runners:
        if preview.runner_type == GYM_RUNNER and not refusal_reasons(snap, preview, preview.span):
            found.setdefault(preview.span.line, Candidate(preview.span, None, "runner"))
    return [found[line] for line in sorted(found)]


def plan(snap: Snapshot, line: int, col: int, tasks_arg: str | None) -> Plan | Refusal:
    """Decide what to submit for a core position (1-based line, code-point col)."""
    report = snap.report
    if report.skipped:
        return Refusal((f"the file was not analysed ({report.skipped})",))
    submit = report.submit_at(line, col)
    preview: TargetPreview | None
    if submit is not None:
        if submit.is_async:
            return Refusal((f"the async evaluator cannot submit a taskset in {SDK_RELEASE}",))
        if submit.shape is not Shape.TASKSET:
            return Refusal((f"this submit() call is not taskset-shaped ({submit.shape.value})",))
        if submit.target is None:
            return Refusal(("the target of this call is not a runner evalsubmit can derive",))
        preview, span, has_errors = submit.target, submit.span, submit.has_errors
        tasks, what = submit.tasks or tasks_arg, "the submit() call"
    else:
        preview = report.preview_at(line, col)
        if preview is None:
            return Refusal(("put the cursor on a taskset submit() call or a Gym runner",))
        span, has_errors, what = preview.span, False, f"the {preview.runner_type or 'runner'}"
        tasks = tasks_arg
    reasons = refusal_reasons(snap, preview, span, has_errors)
    tasks = tasks or snap.effective.default_taskset
    if not tasks:
        reasons.append(NO_TASKSET)
    else:
        try:
            parse_taskset_ref(tasks)
        except ValueError as exc:
            reasons.append(str(exc))
    if reasons or preview.target is None or tasks is None:
        only_taskset = reasons == [NO_TASKSET] and preview.target is not None
        return Refusal(tuple(reasons) or ("the target could not be derived",), only_taskset)
    workspace = submit.workspace if submit is not None else _code_workspace(snap)
    return Plan(target=preview.target, tasks=tasks, code_workspace=workspace, what=what)


def refusal_reasons(
    snap: Snapshot, preview: TargetPreview, span: Span, has_errors: bool = False
) -> list[str]:
    reasons = [f"refused by the SDK: {p}" for p in preview.problems]
    reasons += [f"not statically known: {u}" for u in preview.unknowns]
    errors = [
        f"{f.code} {f.message}"
        for f in snap.report.findings
        if f.severity is Severity.ERROR and span.line <= f.span.line <= span.end_line
    ]
    if has_errors and not errors:  # the error is written elsewhere (e.g. in the runner's config)
        errors = [
            f"{f.code} (line {f.span.line}) {f.message}"
            for f in snap.report.findings
            if f.severity is Severity.ERROR
        ] or ["the call has errors (see the diagnostics)"]
    reasons += errors
    if preview.target is None and not reasons:
        reasons.append("the target could not be derived")
    return reasons


def _code_workspace(snap: Snapshot) -> str | None:
    spaces = {s.workspace for s in snap.report.submits if s.workspace}
    spaces |= set(snap.report.workspaces)
    return spaces.pop() if len(spaces) == 1 else None


_TASKSET_REF = re.compile(r"""TasksetRef\(\s*(?:name\s*=\s*)?(['"])([^'"\n]+)\1""")


def workspace_in_code(snap: Snapshot | None, line: int | None = None) -> str | None:
    """The workspace the code names for a submission at 1-based `line` (its submit() call's
    client, else the one `NeMoPlatform(workspace=...)` of the document)."""
    if snap is None:
        return None
    if line is not None:
        for submit in snap.report.submits:
            if submit.workspace and submit.span.line <= line <= submit.span.end_line:
                return submit.workspace
    return _code_workspace(snap)


def nearby_taskset(snap: Snapshot, line: int) -> str | None:
    """The taskset reference written closest to 1-based `line` (a submit()'s `tasks=`, or any
    `TasksetRef("...")` literal), for pre-filling the taskset prompt of a runner."""
    found = [(s.span.line, s.tasks) for s in snap.report.submits if s.tasks]
    for index, text in enumerate(snap.lines, start=1):
        found += [(index, m.group(2)) for m in _TASKSET_REF.finditer(text)]
    if not found:
        return None
    return min(found, key=lambda f: (abs(f[0] - line), f[0] < line))[1]


def workspace_source(source: str) -> str:
    """Where a resolved workspace comes from, in the words the hover uses."""
    words = {SOURCE_CODE: "the code", SOURCE_SETTING: "the evalsubmit settings"}
    return words.get(source, source)


def platform_config(settings: Settings, code_workspace: str | None) -> ResolvedPlatformConfig:
    return resolve_platform_config(settings.platform, code_workspace=code_workspace)


# -- the command --------------------------------------------------------------------------------


async def run_submit(ls: EvalsubmitServer, args: tuple[Any, ...]) -> dict[str, Any]:
    request = parse_request(args)
    if isinstance(request, str):
        return _refuse(ls, Refusal((request,)))
    try:
        snap, fresh = await ls.checker.snapshot_and_freshness(request.uri, wait_s=SUBMIT_WAIT_S)
        if snap is None:
            return _refuse(ls, Refusal(("the document is not open in the editor",)))
        if not fresh:
            # Never submit what an older text said: the position may point elsewhere now.
            return _refuse(ls, Refusal(("the document is still being analysed; try again",)))
        position = types.Position(line=request.line, character=request.character)
        line, col = convert.core_position(position, snap.lines, ls.session.encoding)
        decided = plan(snap, line, col, request.tasks)
        if isinstance(decided, Refusal) and decided.needs_taskset:
            chosen, problem = await _ask_taskset(ls, snap, line)
            if chosen is not None:
                decided = plan(snap, line, col, chosen)
            elif problem is not None:
                decided = Refusal((*decided.reasons, problem))
        if isinstance(decided, Refusal):
            return _refuse(ls, decided)
        config = await ls.checker.in_pool(platform_config, snap.settings, decided.code_workspace)
    except asyncio.CancelledError:
        show(ls, types.MessageType.Info, NOTHING_SENT)
        raise
    async with Progress(ls, f"{SUBMIT.title}: {decided.tasks}") as progress:
        return await _submit(ls, decided, config, snap.settings, progress, request)


async def _ask_taskset(
    ls: EvalsubmitServer, snap: Snapshot, line: int
) -> tuple[str | None, str | None]:
    """No taskset is known (an editor without the VS Code client's prompt): ask with
    ``window/showMessageRequest``, one button per taskset of the workspace the code's job would
    go to. Returns (the reference chosen, or None; why none could be offered, or None)."""
    config = await ls.checker.in_pool(platform_config, snap.settings, workspace_in_code(snap, line))
    try:
        client = open_client(ls, config)
    except PlatformError as err:
        return None, f"the tasksets could not be listed: {err.message}"
    async with client:
        try:
            found = await client.list_tasksets(config.workspace)
        except PlatformError as err:
            return None, f"the tasksets could not be listed: {err.message}"
    if not found:
        return None, f"workspace {config.workspace} has no taskset"
    try:
        answer = await ls.window_show_message_request_async(
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


def open_client(ls: EvalsubmitServer, config: ResolvedPlatformConfig) -> PlatformClient:
    """A client for ``config`` (raises ``PlatformError`` for settings that cannot be used). A
    token about to travel unencrypted to another machine is a warning, once per address."""
    client = PlatformClient.from_config(config)
    if client.warning is not None:
        if client.base_url in ls.session.warned_urls:
            log.warning("%s: %s", client.shown_url, client.warning)
        else:
            ls.session.warned_urls.add(client.base_url)
            show(ls, types.MessageType.Warning, f"evalsubmit: {client.warning}")
    return client


async def _submit(
    ls: EvalsubmitServer,
    decided: Plan,
    config: ResolvedPlatformConfig,
    settings: Settings,
    progress: Progress,
    request: Request,
) -> dict[str, Any]:
    workspace, name = config.workspace, new_job_name()
    try:
        client = open_client(ls, config)
    except PlatformError as err:
        return _failed(ls, err.message)
    log.info(
        "submitting %s as job %s: taskset %s, workspace %s (%s), platform %s (%s)",
        decided.what,
        name,
        decided.tasks,
        workspace,
        config.sources.get("workspace", "?"),
        client.shown_url,
        config.sources.get("base_url", "?"),
    )
    async with client:
        try:
            try:
                progress.report(f"checking taskset {decided.tasks} in {workspace}")
                await client.get_taskset(workspace, decided.tasks)
            except asyncio.CancelledError:
                show(ls, types.MessageType.Info, NOTHING_SENT)
                raise
            if progress.cancelled:
                return _refuse(ls, Refusal(("cancelled before anything was sent",)))
            progress.report(f"submitting job {name}")
            body = build_submission_body(decided.target, decided.tasks, name)
            job = await _post(ls, config, client, body)
        except PlatformError as err:
            return _failed(ls, err.message)
        url = client.job_url(workspace, job.name)
        ls.window_log_message(
            types.LogMessageParams(type=types.MessageType.Info, message=f"job {job.name}: {url}")
        )
        interval = settings.platform.poll_interval_s
        final = await follow(ls, config, client, job.name, interval, progress)
        if final is None:
            return _result(job.name, workspace, job.status or "created", url)
        outcome = await job_outcome(client, workspace, final)
        kind = types.MessageType.Info if outcome.succeeded else types.MessageType.Error
        if final.status == "cancelled":
            kind = types.MessageType.Warning
        if request.client_reports_outcome:
            log.info("%s", outcome.message())
        else:
            show(ls, kind, outcome.message())
        told = {"error": outcome.error, "details": outcome.details, "message": outcome.message()}
        return {**_result(job.name, workspace, final.status, url), "outcome": told}


async def _post(
    ls: EvalsubmitServer,
    config: ResolvedPlatformConfig,
    client: PlatformClient,
    body: dict[str, Any],
) -> Job:
    """POST the job. A cancel that arrives while the POST is under way cannot take it back: the
    POST runs to its end (bounded by the client's deadline), the user learns that the job exists
    and is offered to cancel it on the platform, and then the cancellation goes on."""
    post = asyncio.ensure_future(client.submit_job(config.workspace, body))
    try:
        return await asyncio.shield(post)
    except asyncio.CancelledError:
        name = str(body.get("name"))
        try:
            job = await post
        except PlatformError as err:
            show(ls, types.MessageType.Warning, f"evalsubmit: cancelled; {err.message}")
        else:
            in_background(offer_cancel(ls, config, job.name, None, after_cancel=True))
            log.info("cancelled after job %s was posted", name)
        raise


def _result(name: str, workspace: str, status: str, url: str) -> dict[str, Any]:
    return {"submitted": True, "name": name, "workspace": workspace, "status": status, "url": url}


def _refuse(ls: EvalsubmitServer, refusal: Refusal) -> dict[str, Any]:
    show(ls, types.MessageType.Warning, f"evalsubmit: {refusal.message()}")
    return {"submitted": False, "reason": "; ".join(refusal.reasons)}


def _failed(ls: EvalsubmitServer, message: str) -> dict[str, Any]:
    show(ls, types.MessageType.Error, f"evalsubmit: {message}")
    return {"submitted": False, "reason": message}
