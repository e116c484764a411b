"""Hover: the derived GymRunnerTarget of a runner, the shape and route of a submit() call, and
the rule titles of a suppression comment. Content comes from the report; nothing is analysed
here.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING

from lsprotocol import types

from evalsubmit.analysis import ModuleReport, Shape, Span, SubmitReport, TargetPreview
from evalsubmit.analysis.rules import RULES
from evalsubmit.analysis.runner_at import RunnerAt, runner_at
from evalsubmit.core.suppression import suppressions
from evalsubmit.lsp import convert
from evalsubmit.lsp.logs import guarded
from evalsubmit.lsp.settings import Settings
from evalsubmit.lsp.state import Snapshot
from evalsubmit.platform.submission import refusal_reasons
from evalsubmit.sdk.version import SDK_RELEASE

if TYPE_CHECKING:
    from evalsubmit.lsp.server import EvalsubmitServer

ROUTES = {
    Shape.TASKSET: "agent-evaluate/jobs",
    Shape.ROW: "evaluate/jobs",
}
SHAPES = {
    Shape.TASKSET: "taskset shape (`tasks=` + runner `target=`): an `agent-evaluate` job",
    Shape.ROW: "row shape (`metric=` + `dataset=`): an `evaluate` job",
    Shape.MIXED: "mixed: both `tasks=` and `metric=`/`dataset=` (the SDK refuses it)",
    Shape.NONE: "no shape: neither `tasks=` + `target=` nor `metric=` + `dataset=`",
}


@guarded()
async def hover(ls: EvalsubmitServer, params: types.HoverParams) -> types.Hover | None:
    snap = await ls.checker.snapshot(params.text_document.uri)
    if snap is None or not snap.settings.enable:
        return None
    encoding = ls.session.encoding
    line, col = convert.core_position(params.position, snap.lines, encoding)
    found = hover_markdown(snap, line, col)
    if found is None:
        return None
    markdown, span = found
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
        range=convert.lsp_range(span, snap.lines, encoding),
    )


def hover_markdown(snap: Snapshot, line: int, col: int) -> tuple[str, Span] | None:
    """Markdown and the span it describes for a core position, or None."""
    if (comment := _suppression_at(snap.lines, line, col)) is not None:
        return comment
    report = snap.report
    submit = report.submit_at(line, col)
    found = runner_at(report, line, col)
    if submit is not None:
        keyword = _keyword_at(snap.lines, line, col, "target")
        inner = report.preview_at(line, col)  # the target's value, a runner built in the call
        if keyword is not None or (inner is not None and not submit.name_span.contains(line, col)):
            return targets_markdown(report, found), keyword or inner.span  # type: ignore[union-attr]
        parts = [submit_markdown(submit, snap.settings)]
        if found.targets or submit.shape is Shape.TASKSET:
            parts.append(targets_markdown(report, found))
        on_name = submit.name_span.contains(line, col)
        return "\n\n".join(parts), submit.name_span if on_name else submit.span
    if found.targets and found.span is not None:
        return targets_markdown(report, found), found.span
    return None


def targets_markdown(report: ModuleReport, found: RunnerAt) -> str:
    """The one target, or that there are several and each with where it comes from."""
    single = found.single
    if single is not None:
        has_errors = found.submit.has_errors if found.submit else False
        span = found.submit.span if found.submit else single.span
        return preview_markdown(single, refusal_reasons(report, single, span, has_errors))
    if not found.targets:
        return f"**No target:** {found.reason}"
    parts = [
        f"**{found.count} different targets** are sent from {found.what}: "
        "none of them is *the* target."
    ]
    for index, preview in enumerate(found.targets, start=1):
        where = "; ".join(preview.where) or "when the code is run otherwise"
        parts.append(f"**{index}.** {where}\n\n{preview_markdown(preview)}")
    if found.more:
        parts.append(f"… and {found.more} more different targets")
    return "\n\n".join(parts)


def preview_markdown(preview: TargetPreview, reasons: list[str] | None = None) -> str:
    """The target JSON; when it cannot be submitted, the reasons come first."""
    runner = preview.runner_type or "runner"
    parts = [f"**Cannot be submitted:**\n{_bullets(tuple(reasons))}"] if reasons else []
    parts.append(f"**{runner}** → `GymRunnerTarget` as the SDK sends it")
    if preview.target is not None:
        body = json.dumps(preview.target, indent=2, ensure_ascii=False)
    else:
        body = preview.rendered
    if body:
        parts.append(f"```json\n{body}\n```")
    if preview.problems and not reasons:
        parts.append("**Cannot be submitted:**\n" + _bullets(preview.problems))
    if preview.unknowns and not reasons:
        parts.append("**Not statically known** (shown as unknown):\n" + _bullets(preview.unknowns))
    return "\n\n".join(parts)


def submit_markdown(submit: SubmitReport, settings: Settings) -> str:
    flavour = "`AsyncEvaluator.submit`" if submit.is_async else "`Evaluator.submit`"
    parts = [f"**{flavour}**: {SHAPES[submit.shape]}"]
    if submit.is_async and submit.shape is not Shape.ROW:
        parts.append(f"The async evaluator cannot submit a taskset in {SDK_RELEASE}.")
    workspace, ws_from = _known(submit.workspace, settings.platform.workspace)
    base_url, url_from = _known(submit.base_url, settings.platform.base_url)
    if (route := ROUTES.get(submit.shape)) is not None:
        shown_ws = workspace or "{workspace}"
        shown_url = (base_url or "{base_url}").rstrip("/")
        parts.append(
            f"Route: `POST {shown_url}/apis/evaluator/v2/workspaces/{shown_ws}/{route}`"
            + (f" (base URL {url_from})" if base_url else "")
        )
    parts.append(
        f"Workspace: `{workspace}` ({ws_from})"
        if workspace
        else "Workspace: not statically known (the client's default workspace)"
    )
    override = settings.platform.workspace
    if override and workspace and override != workspace and submit.shape is Shape.TASKSET:
        parts.append(f"Submit evaluation sends it to `{override}` (evalsubmit.platform.workspace)")
    if submit.shape is Shape.TASKSET:
        parts.append(
            f"Taskset: `{submit.tasks}`" if submit.tasks else "Taskset: not statically known"
        )
    if submit.has_errors:
        parts.append("⚠ This call has errors: the SDK would refuse it (see the diagnostics).")
    return "\n\n".join(parts)


def _known(from_code: str | None, from_settings: str | None) -> tuple[str | None, str]:
    if from_code:
        return from_code, "from the code"
    if from_settings:
        return from_settings, "from the evalsubmit settings"
    return None, ""


def _keyword_at(lines: list[str], line: int, col: int, name: str) -> Span | None:
    """The span of keyword argument ``name`` (as in ``name=``) under the position, if any."""
    if not 1 <= line <= len(lines):
        return None
    for match in re.finditer(rf"\b{name}\s*=(?!=)", lines[line - 1]):
        if match.start() <= col <= match.start() + len(name):
            return Span(line, match.start(), line, match.start() + len(name))
    return None


def _suppression_at(lines: list[str], line: int, col: int) -> tuple[str, Span] | None:
    if not 1 <= line <= len(lines):
        return None
    for comment in suppressions(lines[line - 1]):
        if not comment.start <= col <= comment.end:
            continue
        if comment.codes is None:
            text = "**evalsubmit: ignore**: every evalsubmit rule is silenced on this line."
        elif not comment.codes:
            text = "**evalsubmit: ignore[]** names no rule: nothing is silenced on this line."
        else:
            text = "**evalsubmit: ignore** on this line:\n" + "\n".join(
                _rule_line(code) for code in comment.codes
            )
        return text, Span(line, comment.start, line, comment.end)
    return None


def _rule_line(code: str) -> str:
    rule = RULES.get(code)
    if rule is None:
        return f"- `{code}`: unknown rule code"
    return f"- [`{code}`]({rule.url}) {rule.kind}: {rule.title}"


def _bullets(items: tuple[str, ...]) -> str:
    return "\n".join(f"- {item}" for item in items)
