"""What the editor features read of a group of facts besides findings: runner previews (hover,
"Submit evaluation") and one summary per ``submit()`` call (shape, taskset, workspace)."""

from __future__ import annotations

import ast
import bisect
from operator import attrgetter
from pathlib import Path
from typing import Any

from evalsubmit.analysis.interp.facts import ConstructionKind, SubmitFact
from evalsubmit.analysis.report import Shape, SubmitReport, TargetPreview
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.runner_at import preview_key
from evalsubmit.analysis.target.derive import Derivation, TargetKind, derive
from evalsubmit.analysis.values.domain import Instance, Known, Unknown, type_name
from evalsubmit.core.findings import Finding, Occasion, Span, Where
from evalsubmit.core.records import replace
from evalsubmit.sdk.grammar import taskset_ref_problem

MAX_TARGETS = 64
"""Distinct targets kept per place (the views show fewer, then how many more)."""


def runner_previews(ctx: RuleContext) -> list[TargetPreview]:
    """Every distinct preview of each runner construction (and name bound to one): a place
    walked several times (loop elements, call sites) may build different runners, each kept
    with ``where`` it comes from. A runner that is submitted shows what its first ``submit()``
    sent (its config may have changed since it was built); one never submitted, itself as it
    was built."""
    previews: list[TargetPreview] = []
    places: dict[Any, _Distinct] = {}
    walks: dict[int, tuple[Occasion, ...]] = {}
    sent = _first_sent(ctx)
    for construction in ctx.facts.constructions:
        if construction.kind not in {ConstructionKind.GYM_RUNNER, ConstructionKind.RUNNER}:
            continue
        walks[id(construction.value)] = construction.context
        built = construction.built or construction.value
        preview = derive(built, construction.span).preview
        if preview is None:
            continue
        preview = _as_sent(preview, sent.get(id(construction.value)))
        place = ("node", construction.path, construction.span)
        _keep(places, place, preview, construction.context)
        if construction.context and construction.path in {None, ctx.path}:
            # a name bound to it in a walk with a context (a loop's body, a helper called here)
            name = _bound_name(ctx, construction.node)
            if name is not None:
                _keep(places, ("name", name), replace(preview, span=name), construction.context)
    for span, value, built in ctx.facts.runner_bindings:
        preview = derive(built, span).preview
        if preview is not None:
            preview = _as_sent(preview, sent.get(id(value)))
            context = walks.get(id(value), ())
            origin = value.origin if isinstance(value, Instance) else None
            here = origin is not None and origin.path in {None, ctx.path}
            made_at = origin.span if origin is not None and here else None
            moved = replace(preview, span=span, made_at=made_at)
            _keep(places, ("name", span), moved, context)
    for kept in places.values():
        previews.extend(kept.previews)
    return previews


def _first_sent(ctx: RuleContext) -> dict[int, TargetPreview]:
    """What each runner submitted here was first sent as, by the runner's identity."""
    sent: dict[int, TargetPreview] = {}
    for fact in ctx.facts.submits:
        target = fact.value("target")
        if isinstance(target, Instance) and id(target) not in sent:
            derivation = fact.derivation
            preview = derivation.preview if isinstance(derivation, Derivation) else None
            if preview is not None:
                sent[id(target)] = preview
    return sent


def _as_sent(preview: TargetPreview, sent: TargetPreview | None) -> TargetPreview:
    """``preview`` of a runner, with what it was sent as when it was submitted."""
    if sent is None:
        return preview
    return replace(sent, span=preview.span, made_at=preview.made_at, where=preview.where)


def _bound_name(ctx: RuleContext, call: ast.Call) -> Span | None:
    """The name a construction is assigned to (``runner = GymAgentTaskRunner(...)``), if any."""
    if not ctx.parsed.ascii:
        return None  # ast's byte columns are not the code-point columns of a Span
    statement = _top_level_statement(ctx.parsed.tree.body, call.lineno)
    target = _assigned_names(statement).get(id(call)) if statement is not None else None
    if target is None or target.end_col_offset is None:
        return None
    return Span(target.lineno, target.col_offset, target.lineno, target.end_col_offset)


def _top_level_statement(body: list[ast.stmt], line: int) -> ast.stmt | None:
    """The top-level statement that holds a node of ``line``, when an assignment there can:
    the last one starting at or before it (an assignment is in a body, below its ``def``;
    decorators, above it, hold no assignment)."""
    index = bisect.bisect_right(body, line, key=attrgetter("lineno")) - 1
    return body[index] if index >= 0 else None


_NAMES = "_evalsubmit_assigned_names"


def _assigned_names(statement: ast.stmt) -> dict[int, ast.Name]:
    """``name = value`` assignments in a top-level statement: the name by the id of its value.
    Kept on the node, whose positions are read when asked: a statement the chunk cache reuses
    after an edit (moved, perhaps) is not walked again."""
    found: dict[int, ast.Name] | None = getattr(statement, _NAMES, None)
    if found is None:
        found = {}
        for node in ast.walk(statement):
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Name):
                    found[id(node.value)] = target
        setattr(statement, _NAMES, found)
    return found


class _Distinct:
    """The distinct previews of one place, each with ``where`` it comes from. Previews are
    compared (which renders a partial one, with the SDK models) only once a second one
    arrives: most places have one, and a ``check`` shows none."""

    __slots__ = ("keys", "previews")

    def __init__(self) -> None:
        self.previews: list[TargetPreview] = []
        self.keys: list[str] = []

    def add(self, preview: TargetPreview, label: Where) -> None:
        if not self.previews:
            self.previews.append(replace(preview, where=(label,) if label else ()))
            return
        if not self.keys:
            self.keys = [preview_key(self.previews[0])]
        key = preview_key(preview)
        if key in self.keys:
            index = self.keys.index(key)
            kept = self.previews[index]
            if label and label not in kept.where:
                self.previews[index] = replace(kept, where=(*kept.where, label))
            return
        if len(self.previews) < MAX_TARGETS:
            self.previews.append(replace(preview, where=(label,) if label else ()))
            self.keys.append(key)


def _keep(
    places: dict[Any, _Distinct],
    place: Any,
    preview: TargetPreview,
    context: tuple[Occasion, ...],
) -> None:
    """Add ``preview`` (made ``where`` ``context`` says) to the distinct previews of a place."""
    label = tuple(walk.label for walk in context)
    places.setdefault(place, _Distinct()).add(preview, label)


def submit_reports(ctx: RuleContext, findings: list[Finding]) -> list[SubmitReport]:
    """One summary per call, with every distinct target its walks send."""
    error_lines = sorted(f.span.line for f in findings if f.severity == "error")
    walked: dict[tuple[Path | None, Span], list[SubmitFact]] = {}
    for fact in ctx.facts.submits:
        walked.setdefault((fact.path, fact.span), []).append(fact)
    return [_submit_report(facts, error_lines) for facts in walked.values()]


def _submit_report(facts: list[SubmitFact], error_lines: list[int]) -> SubmitReport:
    fact = facts[0]
    places: dict[Any, _Distinct] = {}
    reason: str | None = None
    has_errors = False
    for walk in facts:
        derivation = walk.derivation if isinstance(walk.derivation, Derivation) else None
        preview = derivation.preview if derivation else None
        if preview is not None and "target" in walk.args.keywords:
            preview = replace(preview, span=walk.target_value_span())
        if preview is not None:
            _keep(places, "call", preview, walk.context)
        elif (why := unresolved_reason(walk, derivation)) is not None:
            reason = reason or why
            if walk.context:  # one of several walks: it is one of the targets, unknown
                _keep(places, "call", unresolved(walk, why), walk.context)
        if derivation and derivation.content:
            has_errors = True
    targets = tuple(places["call"].previews) if "call" in places else ()
    first = bisect.bisect_left(error_lines, fact.span.line)
    if first < len(error_lines) and error_lines[first] <= fact.span.end_line:
        has_errors = True
    client = _client_of(fact.evaluator)
    return SubmitReport(
        span=fact.span,
        name_span=fact.name_span,
        shape=_shape(fact),
        is_async=fact.is_async,
        tasks=_tasks(fact),
        target=targets[0] if len(targets) == 1 else None,
        workspace=_literal(client, "workspace"),
        base_url=_literal(client, "base_url"),
        has_errors=has_errors,
        targets=targets,
        target_reason=None if targets else reason,
    )


def unresolved(fact: SubmitFact, reason: str) -> TargetPreview:
    """The target of one walk of a call that has no preview: refused (not a runner) or unknown."""
    import json

    refused = not reason.startswith(UNRESOLVED)
    render = json.dumps({"target": f"<{'error' if refused else 'unknown'}: {reason}>"}, indent=2)
    if refused:
        return TargetPreview(fact.target_value_span(), None, None, render, (reason,))
    return TargetPreview(fact.target_value_span(), None, None, render, (), (reason,))


UNRESOLVED = "the runner could not be resolved"


def unresolved_reason(fact: SubmitFact, derivation: Derivation | None) -> str | None:
    """Why the ``target=`` of a call has no preview, in the user's words (None: no target)."""
    value = fact.value("target")
    if value is None:
        if fact.args.star_unknown:
            return f"{UNRESOLVED}: target= may come from a ** mapping of unknown content"
        return None
    kind = derivation.kind if derivation else None
    name = derivation.type_name if derivation else type_name(value)
    if isinstance(value, Unknown):
        why = value.reason
        if not why or why == "not statically known":
            return f"{UNRESOLVED}: target= is not statically known"
        return f"{UNRESOLVED}: target= is not statically known ({why})"
    if isinstance(value, Instance) and value.maybe_none:
        return f"{UNRESOLVED}: target= may be a {name} or None"
    if kind in {TargetKind.NONE, TargetKind.NOT_RUNNER} and _shape(fact) is Shape.ROW:
        return None  # a row evaluation's own target (None, a model): no runner is sent
    if kind is TargetKind.NONE:
        return "target is None, not a runner: the SDK refuses it"
    if kind is TargetKind.NOT_RUNNER:
        return f"target is a {name}, not a runner: the SDK refuses it"
    return f"{UNRESOLVED}: a {name}, whose kind of runner is not statically known"


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
