"""The runner at a place: the one resolver behind hover, ``preview``, the code lens and "Submit
evaluation" (CLI and editor), so that all of them agree on what a position means.

A position resolves to

* a ``submit()`` call when it is anywhere in the call (the ``submit`` name, the parentheses,
  any argument): the targets that call sends;
* else a runner construction, or a name bound to one, under it: the targets it makes.

A place the analysis walked several times (a helper called with different arguments, a loop
over plans, parametrized tests) may send several different targets: all of them are kept, each
with where it comes from, and none is ever *the* target. When the analysis also walked the place
on its own (a function's body with its parameters unknown), that walk stands for calls the
module does not make; it is dropped once the module's own calls are known.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from evalsubmit.analysis.report import ModuleReport, Shape, SubmitReport, TargetPreview
from evalsubmit.core.findings import Span
from evalsubmit.core.records import record, replace

SHOWN = 5
"""How many distinct targets a view shows before saying how many more there are."""


@record
class RunnerAt:
    """What a position resolves to."""

    span: Span | None
    """What the answer describes (the call, the construction, the bound name)."""
    submit: SubmitReport | None
    """The ``submit()`` call, when the position is in one."""
    targets: tuple[TargetPreview, ...] = ()
    """The distinct targets (at most ``SHOWN``), each with ``where`` it comes from."""
    more: int = 0
    """How many more distinct targets there are than ``targets`` shows."""
    reason: str | None = None
    """Why no target is known (``targets`` empty)."""

    @property
    def single(self) -> TargetPreview | None:
        """The target, when there is exactly one."""
        return self.targets[0] if len(self.targets) == 1 and not self.more else None

    @property
    def count(self) -> int:
        return len(self.targets) + self.more

    @property
    def what(self) -> str:
        if self.submit is not None:
            return "the submit() call"
        runner = self.targets[0].runner_type if self.targets else None
        return f"the {runner or 'runner'}"


def runner_at(
    report: ModuleReport, line: int, col: int, lines: Sequence[str] | None = None
) -> RunnerAt:
    """The runner at a 1-based line and 0-based column; ``col`` -1: the innermost submit() call
    on that line, else the innermost runner on it. ``lines`` (the module's text) lets a
    ``.submit(`` the analysis could not tie to the SDK be named as such."""
    submit = _submit_on(report, line, col)
    if submit is not None:
        return _of_submit(report, submit)
    spans = [
        p.span
        for p in report.runners
        if p.span.line <= line <= p.span.end_line and (col < 0 or p.span.contains(line, col))
    ]
    if not spans:
        unknown = _unknown_submit(lines, line, col) if lines is not None else None
        if unknown is not None:
            return RunnerAt(None, None, reason=unknown)
        where = f"line {line}" if col < 0 else f"line {line}, column {col + 1}"
        return RunnerAt(None, None, reason=f"no submit() call or runner at {where}")
    span = min(spans, key=_size)
    found = merged([p for p in report.runners if p.span == span])
    made_at = {p.made_at for p in found if p.made_at is not None and not p.where}
    if len(made_at) == 1 and len(found) == 1:
        # a name bound to a runner: the runners its construction makes, walk by walk
        construction = made_at.pop()
        built = merged([p for p in report.runners if p.span == construction])
        if built:
            found = tuple(replace(p, span=span) for p in built)
    return RunnerAt(span, None, found[:SHOWN], max(0, len(found) - SHOWN))


def _submit_on(report: ModuleReport, line: int, col: int) -> SubmitReport | None:
    if col >= 0:
        return report.submit_at(line, col)
    hits = [s for s in report.submits if s.span.line <= line <= s.span.end_line]
    return min(hits, key=lambda s: _size(s.span), default=None)


def _of_submit(report: ModuleReport, submit: SubmitReport) -> RunnerAt:
    walks = [s for s in report.submits if s.span == submit.span]
    found = merged([t for s in walks for t in (s.targets or ((s.target,) if s.target else ()))])
    submit = replace(
        submit,
        has_errors=any(s.has_errors for s in walks),
        target=found[0] if len(found) == 1 else None,
        targets=found,
    )
    if found:
        return RunnerAt(submit.span, submit, found[:SHOWN], max(0, len(found) - SHOWN))
    reasons = [s.target_reason for s in walks if s.target_reason]
    if reasons:
        reason = reasons[0]
    elif submit.shape is Shape.TASKSET:
        reason = "the runner could not be resolved"
    else:
        reason = (
            f"this submit() call is not taskset-shaped ({submit.shape.value}): it has no runner"
        )
    return RunnerAt(submit.span, submit, reason=reason)


def merged(previews: list[TargetPreview]) -> tuple[TargetPreview, ...]:
    """The distinct targets of a place's walks, with the places each comes from; a walk of the
    place on its own is dropped when walks from the module's own calls exist."""
    placed = [p for p in previews if p.where]
    kept: dict[str, TargetPreview] = {}
    for preview in placed or previews:
        key = preview_key(preview)
        if key in kept:
            where = (*kept[key].where, *(w for w in preview.where if w not in kept[key].where))
            kept[key] = replace(kept[key], where=where)
        else:
            kept[key] = preview
    return tuple(kept.values())


def preview_key(preview: TargetPreview) -> str:
    """What makes two previews the same target (the JSON, or the rendering and its notes)."""
    if preview.target is not None:
        import json  # only a preview needs it

        return json.dumps(preview.target, sort_keys=True)
    return "\0".join((preview.rendered, *preview.problems, *preview.unknowns))


def _size(span: Span) -> tuple[int, int]:
    return (span.end_line - span.line, span.end_col - span.col)


def _unknown_submit(lines: Sequence[str], line: int, col: int) -> str | None:
    """Why a ``.submit(`` call at the position has no target: the analysis never tied it to
    the SDK (the call's receiver is a parameter of a helper this module does not call, or a
    value from elsewhere), so it is not known to be ``submit()`` of an evaluator at all."""
    try:
        tree = ast.parse("\n".join(lines))
    except (SyntaxError, ValueError):
        return None
    calls = [
        (node, node.func)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "submit"
        and _covers(node, lines, line, col)
    ]
    if not calls:
        return None
    _, submit = min(calls, key=lambda pair: (pair[0].end_lineno or line) - pair[0].lineno)
    receiver = ast.unparse(submit.value)
    head = receiver.split(".")[0].split("(")[0].split("[")[0]
    return (
        f"`{receiver}.submit(...)` here is not known to be the SDK's submit(): what "
        f"`{head}` is is not statically known in this module (a parameter of a function "
        "it does not call, or a value from elsewhere); preview the runner where it is "
        "built, or a submit() call whose client is known"
    )


def _covers(node: ast.expr, lines: Sequence[str], line: int, col: int) -> bool:
    """Whether ``node`` covers the position (1-based line, code-point column; any column of
    the line when ``col`` is -1)."""
    if not node.lineno <= line <= (node.end_lineno or node.lineno):
        return False
    if col < 0:
        return True
    offset = len(lines[line - 1][:col].encode()) if 0 < line <= len(lines) else 0
    starts = node.col_offset if node.lineno == line else -1
    ends = node.end_col_offset if node.end_lineno == line else None
    return starts <= offset and (ends is None or offset < ends)
