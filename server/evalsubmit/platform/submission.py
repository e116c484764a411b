"""Submitting a Gym runner as an ``agent-evaluate`` job: the decision and the sending, shared by
the editor's "Submit evaluation" (:mod:`evalsubmit.lsp.submit`) and ``evalsubmit submit``
(:mod:`evalsubmit.cli.submit`), so both refuse and send exactly the same things.

* :func:`plan` (pure, no I/O) decides *what* would be submitted from an analysis report: the
  taskset-shaped ``submit()`` call or the Gym runner at a position, its derived target, the
  taskset. It refuses, with reasons, whenever the target is not fully and validly known or the
  call/runner has an error diagnostic: never a guess, never an HTTP request for a refusal.
* :class:`Submission` sends a plan: taskset lookup, then one POST with a client-generated job
  name (a lost answer is looked up by that name, never re-POSTed: :meth:`PlatformClient.
  submit_job`). Progress and cancellation reach the caller through callbacks, so the editor can
  show a work-done progress and the CLI a line on stderr.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from evalsubmit.analysis import ModuleReport, Severity, Shape, Span, TargetPreview
from evalsubmit.analysis.runner_at import RunnerAt, merged, runner_at
from evalsubmit.core.records import record
from evalsubmit.sdk.grammar import parse_taskset_ref
from evalsubmit.sdk.version import SDK_RELEASE

from .body import build_submission_body, new_job_name
from .client import PlatformClient
from .config import ResolvedPlatformConfig
from .errors import PlatformError
from .models import Job, JobStatus

GYM_RUNNER = "GymAgentTaskRunner"
NO_TASKSET = "no taskset"
"""How every "no taskset known" reason starts; the caller adds how to name one."""


@record
class Plan:
    """What will be sent: the wire target (exactly the SDK's) and the taskset reference."""

    target: dict[str, Any]
    tasks: str
    code_workspace: str | None
    what: str


@record
class Refusal:
    reasons: tuple[str, ...]
    needs_taskset: bool = False
    """The only reason is that no taskset is known: asking for one can make it a Plan."""

    def message(self) -> str:
        return "Not submitted: " + "; ".join(self.reasons)


@record
class Candidate:
    """A submittable place in a module (for the code lens, the code action and the CLI)."""

    span: Span
    tasks: str | None
    what: str


def candidates(report: ModuleReport) -> list[Candidate]:
    """Taskset-shaped sync submit() calls and Gym runner constructions that would be accepted
    (one per line; a call wins over a runner on the same line)."""
    found: dict[int, Candidate] = {}
    for submit in report.submits:
        ok = submit.shape is Shape.TASKSET and not submit.is_async
        if not ok or submit.span.line in found:
            continue
        call = runner_at(report, submit.span.line, submit.span.col)
        target, merged_call = call.single, call.submit
        if (
            target is not None
            and merged_call is not None
            and merged_call.span == submit.span
            and not refusal_reasons(report, target, submit.span, merged_call.has_errors)
        ):
            found[submit.span.line] = Candidate(submit.span, submit.tasks, "call")
    runners: dict[Span, list[TargetPreview]] = {}
    for preview in report.runners:
        runners.setdefault(preview.span, []).append(preview)
    for span, previews in runners.items():
        distinct = merged(previews)
        if len(distinct) != 1 or span.line in found:
            continue  # a runner that is several runners is never submitted as one
        preview = distinct[0]
        if preview.runner_type == GYM_RUNNER and not refusal_reasons(report, preview, span):
            found[span.line] = Candidate(span, None, "runner")
    return [found[line] for line in sorted(found)]


def position_on_line(report: ModuleReport, line: int) -> tuple[int, int] | None:
    """Where a line-only location (``PATH:LINE``) points, as the editor's code action would: the
    start of an accepted call or runner on that line, else of any submit() call or runner on it
    (so that a refusal names *its* reasons); None when the line holds neither."""
    accepted = [c.span for c in candidates(report) if c.span.line <= line <= c.span.end_line]
    others = [s.span for s in report.submits if s.span.line <= line <= s.span.end_line]
    others += [p.span for p in report.runners if p.span.line <= line <= p.span.end_line]
    spans = accepted or others
    if not spans:
        return None
    # The innermost one: a runner built inside a submit() call is what the line is about only
    # when no call spans it.
    span = accepted[0] if accepted else min(spans, key=lambda s: (s.end_line - s.line, s.line))
    return span.line, span.col


def plan(
    report: ModuleReport,
    line: int,
    col: int,
    tasks_arg: str | None,
    *,
    default_taskset: str | None,
    name_a_taskset: str,
) -> Plan | Refusal:
    """Decide what to submit for a core position (1-based line, code-point col).

    The taskset is ``tasks=`` of the call when statically known, else ``tasks_arg`` (the
    editor's prompt, ``--taskset``), else ``default_taskset``; ``name_a_taskset`` ends the
    reason given when there is none (how to name one where the user is)."""
    if report.skipped:
        return Refusal((f"the file was not analysed ({report.skipped})",))
    found = runner_at(report, line, col)
    submit = found.submit
    if submit is not None:
        if submit.is_async:
            return Refusal((f"the async evaluator cannot submit a taskset in {SDK_RELEASE}",))
        if submit.shape is not Shape.TASKSET:
            return Refusal((f"this submit() call is not taskset-shaped ({submit.shape.value})",))
    if not found.targets:
        return Refusal(
            (found.reason or "put the cursor on a taskset submit() call or a Gym runner",)
        )
    preview = found.single
    if preview is None:
        return Refusal((several(found),))
    if submit is not None:
        span, has_errors = submit.span, submit.has_errors
        tasks, what = submit.tasks or tasks_arg, "the submit() call"
    else:
        span, has_errors, what = found.span or preview.span, False, found.what
        tasks = tasks_arg
    reasons = refusal_reasons(report, preview, span, has_errors)
    tasks = tasks or default_taskset
    no_taskset = f"{NO_TASKSET}: {name_a_taskset}"
    if not tasks:
        reasons.append(no_taskset)
    else:
        try:
            parse_taskset_ref(tasks)
        except ValueError as exc:
            reasons.append(str(exc))
    if reasons or preview.target is None or tasks is None:
        only_taskset = reasons == [no_taskset] and preview.target is not None
        return Refusal(tuple(reasons) or ("the target could not be derived",), only_taskset)
    workspace = submit.workspace if submit is not None else code_workspace(report)
    return Plan(target=preview.target, tasks=tasks, code_workspace=workspace, what=what)


def several(found: RunnerAt) -> str:
    """Why a place that sends several different targets is not submitted as one of them."""
    wheres = "; ".join(w for t in found.targets for w in t.wheres[:1]) or "different walks"
    more = f" and {found.more} more" if found.more else ""
    return (
        f"{found.count} different targets are sent from {found.what} ({wheres}{more}): none of "
        "them is the target; submit one runner at a time"
    )


def refusal_reasons(
    report: ModuleReport, preview: TargetPreview, span: Span, has_errors: bool = False
) -> list[str]:
    """Why ``preview`` (the target of the call or runner at ``span``) cannot be submitted."""
    reasons = [f"refused by the SDK: {p}" for p in preview.problems]
    reasons += [f"not statically known: {u}" for u in preview.unknowns]
    errors = [
        f"{f.code} {f.message}"
        for f in report.findings
        if f.severity is Severity.ERROR and span.line <= f.span.line <= span.end_line
    ]
    if has_errors and not errors:  # the error is written elsewhere (e.g. in the runner's config)
        errors = [
            f"{f.code} (line {f.span.line}) {f.message}"
            for f in report.findings
            if f.severity is Severity.ERROR
        ] or ["the call has errors (see the diagnostics)"]
    reasons += errors
    if preview.target is None and not reasons:
        reasons.append("the target could not be derived")
    return reasons


def code_workspace(report: ModuleReport) -> str | None:
    """The one workspace the module's clients name, if they name exactly one."""
    spaces = {s.workspace for s in report.submits if s.workspace}
    spaces |= set(report.workspaces)
    return spaces.pop() if len(spaces) == 1 else None


def workspace_in_code(report: ModuleReport, line: int | None = None) -> str | None:
    """The workspace the code names for a submission at 1-based `line` (its submit() call's
    client, else the one `NeMoPlatform(workspace=...)` of the module)."""
    if line is not None:
        for submit in report.submits:
            if submit.workspace and submit.span.line <= line <= submit.span.end_line:
                return submit.workspace
    return code_workspace(report)


_TASKSET_REF = re.compile(r"""TasksetRef\(\s*(?:name\s*=\s*)?(['"])([^'"\n]+)\1""")


def nearby_taskset(report: ModuleReport, lines: Sequence[str], line: int) -> str | None:
    """The taskset reference written closest to 1-based `line` (a submit()'s `tasks=`, or any
    `TasksetRef("...")` literal), for pre-filling the taskset prompt of a runner."""
    found = [(s.span.line, s.tasks) for s in report.submits if s.tasks]
    for index, text in enumerate(lines, start=1):
        found += [(index, m.group(2)) for m in _TASKSET_REF.finditer(text)]
    if not found:
        return None
    return min(found, key=lambda f: (abs(f[0] - line), f[0] < line))[1]


_STATE_WORDS = {
    "created": "created, waiting to be scheduled",
    "pending": "pending: scheduled",
    "active": "active: running",
    "cancelling": "cancelling",
}


def state_words(status: JobStatus) -> str:
    """The job's state in words; the platform's message only once the job has ended (while it
    runs, the job's message can lag behind its status, e.g. "pending" with "Job is running")."""
    return _STATE_WORDS.get(status.status) or status.summary()


# -- sending ------------------------------------------------------------------------------------

AfterCancel = Callable[[Job | None, PlatformError | None], None]
"""Told when the caller cancelled the sending: (None, None) when nothing was sent; the job when
the POST had begun and the job exists; the error when that POST failed anyway."""


@dataclass
class Submission:
    """One plan on its way to one platform, under one job name chosen before anything is sent
    (the name is what makes a lost answer recoverable without a second job)."""

    plan: Plan
    config: ResolvedPlatformConfig
    client: PlatformClient
    name: str = field(default_factory=new_job_name)

    @property
    def workspace(self) -> str:
        return self.config.workspace

    @property
    def url(self) -> str:
        return self.client.job_url(self.workspace, self.name)

    def describe(self) -> str:
        """A log line naming everything about where the job goes and why (never the token)."""
        sources = self.config.sources
        return (
            f"submitting {self.plan.what} as job {self.name}: taskset {self.plan.tasks}, "
            f"workspace {self.workspace} ({sources.get('workspace', '?')}), platform "
            f"{self.client.shown_url} ({sources.get('base_url', '?')})"
        )

    async def send(
        self,
        *,
        step: Callable[[str], None],
        cancelled: Callable[[], bool],
        after_cancel: AfterCancel,
    ) -> Job | None:
        """Check the taskset, then POST the job. None when ``cancelled()`` said so before the
        POST (nothing was sent). Raises ``PlatformError`` for what the platform refused.

        A cancellation of the awaiting task (the editor's ``$/cancelRequest``, Ctrl-C under
        ``asyncio.run``) before the POST sends nothing; once the POST is under way it cannot be
        taken back, so it runs to its end (bounded by the client's deadline) and ``after_cancel``
        learns whether the job exists; the cancellation then goes on."""
        try:
            step(f"checking taskset {self.plan.tasks} in {self.workspace}")
            await self.client.get_taskset(self.workspace, self.plan.tasks)
        except asyncio.CancelledError:
            after_cancel(None, None)
            raise
        if cancelled():
            return None
        step(f"submitting job {self.name}")
        body = build_submission_body(self.plan.target, self.plan.tasks, self.name)
        post = asyncio.ensure_future(self.client.submit_job(self.workspace, body))
        try:
            return await asyncio.shield(post)
        except asyncio.CancelledError:
            try:
                job = await post
            except PlatformError as err:
                after_cancel(None, err)
            else:
                after_cancel(job, None)
            raise
