"""Hover: the derived GymRunnerTarget of a runner, the shape and route of a submit() call, and
the rule titles of a suppression comment. Content comes from the report; nothing is analysed
here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

from lsprotocol import types

from evalsubmit.analysis import ModuleReport, Shape, Span, SubmitReport, TargetPreview
from evalsubmit.analysis.rules import RULES
from evalsubmit.analysis.runner_at import RunnerAt, runner_at
from evalsubmit.core.suppression import Kind, Suppression, file_suppressions, suppressions
from evalsubmit.lsp import convert
from evalsubmit.lsp.markdown import code_block, code_span
from evalsubmit.lsp.requests import Context
from evalsubmit.lsp.snapshot import Analysis, Snapshot
from evalsubmit.lsp.submit import platform_config
from evalsubmit.platform import ResolvedPlatformConfig
from evalsubmit.platform.config import SOURCE_CODE, SOURCE_SETTING
from evalsubmit.platform.safety import display_url
from evalsubmit.platform.submission import refusal_reasons
from evalsubmit.sdk.version import SDK_RELEASE

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


async def hover(
    snapshot: Snapshot, context: Context, params: types.HoverParams
) -> types.Hover | None:
    snap = snapshot.analysed
    line, col = convert.core_position(params.position, snap.lines, context.encoding)
    config = None
    if (submit := snap.report.submit_at(line, col)) is not None:
        # What Submit evaluation would use: it reads the environment and the nmp config file.
        config = await context.in_pool(platform_config, snap.settings, submit.workspace)
    found = hover_markdown(snap, line, col, config)
    if found is None:
        return None
    markdown, span = found
    return types.Hover(
        contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=markdown),
        range=convert.lsp_range(span, snap.lines, context.encoding),
    )


def hover_markdown(
    snap: Analysis, line: int, col: int, config: ResolvedPlatformConfig | None = None
) -> tuple[str, Span] | None:
    """Markdown and the span it describes for a core position, or None. ``config`` is where
    *Submit evaluation* would send a submit() call there (resolved here when not given)."""
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
        config = config or platform_config(snap.settings, submit.workspace)
        parts = [submit_markdown(submit, config)]
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
        where = "; ".join(preview.wheres) or "when the code is run otherwise"
        parts.append(f"**{index}.** {where}\n\n{preview_markdown(preview)}")
    if found.more:
        parts.append(f"… and {found.more} more different targets")
    return "\n\n".join(parts)


def preview_markdown(preview: TargetPreview, reasons: list[str] | None = None) -> str:
    """The target JSON; when it cannot be submitted, the reasons come first."""
    runner = code_span(preview.runner_type or "runner")
    parts = [f"**Cannot be submitted:**\n{_bullets(tuple(reasons))}"] if reasons else []
    parts.append(f"{runner} → `GymRunnerTarget` as the SDK sends it")
    if preview.target is not None:
        body = json.dumps(preview.target, indent=2, ensure_ascii=False)
    else:
        body = preview.rendered
    if body:
        parts.append(code_block(body, "json"))
    if preview.problems and not reasons:
        parts.append("**Cannot be submitted:**\n" + _bullets(preview.problems))
    if preview.unknowns and not reasons:
        parts.append("**Not statically known** (shown as unknown):\n" + _bullets(preview.unknowns))
    return "\n\n".join(parts)


def submit_markdown(submit: SubmitReport, config: ResolvedPlatformConfig) -> str:
    """The call's shape, and the route *Submit evaluation* would really take for it: ``config``
    resolves the settings, the SDK's environment, the nmp config file, then the code."""
    flavour = "`AsyncEvaluator.submit`" if submit.is_async else "`Evaluator.submit`"
    parts = [f"**{flavour}**: {SHAPES[submit.shape]}"]
    if submit.is_async and submit.shape is not Shape.ROW:
        parts.append(f"The async evaluator cannot submit a taskset in {SDK_RELEASE}.")
    base_url = display_url(config.base_url)
    if (route := ROUTES.get(submit.shape)) is not None:
        target = f"POST {base_url}/apis/evaluator/v2/workspaces/{config.workspace}/{route}"
        parts.append(f"Route: {code_span(target)}")
    sources = config.sources
    parts.append(
        f"*Submit evaluation* resolves the base URL {code_span(base_url)} from "
        f"{_source('base_url', sources)} and the workspace {code_span(config.workspace)} from "
        f"{_source('workspace', sources)}."
    )
    if submit.workspace:
        parts.append(f"Workspace in the code: {code_span(submit.workspace)}")
        if config.workspace != submit.workspace:
            parts.append(f"*Submit evaluation* sends it to {code_span(config.workspace)} instead.")
    else:
        parts.append("Workspace in the code: not statically known")
    if submit.base_url and submit.base_url.rstrip("/") != config.base_url:
        code_url = code_span(display_url(submit.base_url))
        parts.append(f"The code's client uses {code_url}; *Submit evaluation* does not.")
    if submit.shape is Shape.TASKSET:
        parts.append(
            f"Taskset: {code_span(submit.tasks)}"
            if submit.tasks
            else "Taskset: not statically known"
        )
    if submit.has_errors:
        parts.append("⚠ This call has errors: the SDK would refuse it (see the diagnostics).")
    return "\n\n".join(parts)


_SETTING_NAMES = {"base_url": "baseUrl", "workspace": "workspace"}


def _source(name: str, sources: dict[str, str]) -> str:
    source = sources.get(name, "?")
    if source == SOURCE_SETTING:
        return f"the setting `evalsubmit.platform.{_SETTING_NAMES[name]}`"
    if source == SOURCE_CODE:
        return "the code"
    return code_span(source)  # an environment variable, or the nmp config file and its context


def _keyword_at(lines: Sequence[str], line: int, col: int, name: str) -> Span | None:
    """The span of keyword argument ``name`` (as in ``name=``) under the position, if any."""
    if not 1 <= line <= len(lines):
        return None
    for match in re.finditer(rf"\b{name}\s*=(?!=)", lines[line - 1]):
        if match.start() <= col <= match.start() + len(name):
            return Span(line, match.start(), line, match.start() + len(name))
    return None


def _suppression_at(lines: Sequence[str], line: int, col: int) -> tuple[str, Span] | None:
    if not 1 <= line <= len(lines):
        return None
    text = lines[line - 1].rstrip("\r\n")
    comments = [*suppressions(text), *(s for _, s in file_suppressions([text]))]
    for comment in comments:
        if comment.start <= col <= comment.end:
            return _suppression_text(comment), Span(line, comment.start, line, comment.end)
    return None


def _suppression_text(comment: Suppression) -> str:
    """What a suppression comment silences, in words (codes of other tools named as theirs)."""
    where = "in this file" if comment.kind is Kind.FILE else "on this line"
    name = f"**{comment.kind}**"
    if comment.codes is None:
        also = (
            " (and, for other tools that read it, their rules)" if comment.kind is Kind.NOQA else ""
        )
        return f"{name}: every evalsubmit rule is silenced {where}{also}."
    foreign = [c.code for c in comment.foreign]
    others = (
        f"\n\nOther tools' codes: {', '.join(code_span(c) for c in foreign)}" if foreign else ""
    )
    if not comment.codes:
        return f"{name} names no evalsubmit rule: nothing of ours is silenced {where}.{others}"
    rules = "\n".join(_rule_line(code) for code in dict.fromkeys(comment.codes))
    return f"{name} {where}:\n{rules}{others}"


def _rule_line(code: str) -> str:
    rule = RULES.get(code)
    if rule is None:
        return f"- {code_span(code)}: unknown rule code"
    return f"- [`{code}`]({rule.url}) {rule.kind}: {rule.title}"


def _bullets(items: tuple[str, ...]) -> str:
    return "\n".join(f"- {code_span(item)}" for item in items)
