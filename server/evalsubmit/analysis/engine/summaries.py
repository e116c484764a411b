"""What the editor features read of a group of facts besides findings: runner previews (hover,
"Submit evaluation") and one summary per ``submit()`` call (shape, taskset, workspace)."""

from __future__ import annotations

import bisect

from evalsubmit.analysis.interp.facts import ConstructionKind, SubmitFact
from evalsubmit.analysis.report import Shape, SubmitReport, TargetPreview
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.target.derive import Derivation, derive
from evalsubmit.analysis.values.domain import Instance, Known
from evalsubmit.core.findings import Finding
from evalsubmit.sdk.grammar import taskset_ref_problem


def runner_previews(ctx: RuleContext) -> list[TargetPreview]:
    """One preview per runner construction (of a walk repeated for loop elements or call
    sites, the first: hover shows one target per place)."""
    previews: list[TargetPreview] = []
    seen: set[int] = set()
    for construction in ctx.facts.constructions:
        if construction.context and id(construction.node) in seen:
            continue
        seen.add(id(construction.node))
        if construction.kind in {ConstructionKind.GYM_RUNNER, ConstructionKind.RUNNER}:
            preview = derive(construction.value, construction.span, ctx.path).preview
            if preview is not None:
                previews.append(preview)
    for span, value in ctx.facts.runner_bindings:
        preview = derive(value, span, ctx.path).preview
        if preview is not None:
            previews.append(preview.moved(span))
    return previews


def submit_reports(ctx: RuleContext, findings: list[Finding]) -> list[SubmitReport]:
    reports = []
    error_lines = sorted(f.span.line for f in findings if f.severity == "error")
    seen: set[int] = set()
    for fact in ctx.facts.submits:
        if fact.context and id(fact.node) in seen:
            continue  # one summary per call (the first walk of a repeated one)
        seen.add(id(fact.node))
        derivation = fact.derivation if isinstance(fact.derivation, Derivation) else None
        preview = derivation.preview if derivation else None
        if preview is not None and "target" in fact.args.keywords:
            preview = preview.moved(fact.target_value_span())
        first = bisect.bisect_left(error_lines, fact.span.line)
        has_errors = first < len(error_lines) and error_lines[first] <= fact.span.end_line
        if derivation and derivation.content:
            has_errors = True
        client = _client_of(fact.evaluator)
        reports.append(
            SubmitReport(
                span=fact.span,
                name_span=fact.name_span,
                shape=_shape(fact),
                is_async=fact.is_async,
                tasks=_tasks(fact),
                target=preview,
                workspace=_literal(client, "workspace"),
                base_url=_literal(client, "base_url"),
                has_errors=has_errors,
            )
        )
    return reports


def _shape(fact: SubmitFact) -> Shape:
    tasks = bool(fact.supplied("tasks"))
    rows = bool(fact.supplied("metric")) or bool(fact.supplied("dataset"))
    if tasks and rows:
        return Shape.MIXED
    if tasks:
        return Shape.TASKSET
    if fact.supplied("metric") and fact.supplied("dataset"):
        return Shape.ROW
    return Shape.NONE


def _tasks(fact: SubmitFact) -> str | None:
    """The taskset reference string, when statically known and well formed."""
    value = fact.value("tasks")
    if isinstance(value, Instance) and value.args.positional:
        value = value.args.positional[0]
    elif isinstance(value, Instance):
        value = value.args.keywords.get("root")
    if isinstance(value, Known) and isinstance(value.obj, str):
        text: str = value.obj
        return text if taskset_ref_problem(text) is None else None
    return None


def _client_of(evaluator: Instance) -> Instance | None:
    client = evaluator.args.keywords.get("client")
    if isinstance(client, Instance):
        inner = client.args.keywords.get("client")
        return inner if isinstance(inner, Instance) else client
    if evaluator.args.positional and isinstance(evaluator.args.positional[0], Instance):
        return evaluator.args.positional[0]
    return None


def _literal(instance: Instance | None, name: str) -> str | None:
    if instance is None:
        return None
    value = instance.args.keywords.get(name)
    return value.obj if isinstance(value, Known) and isinstance(value.obj, str) else None
