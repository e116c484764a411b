"""ES105 runner-on-row-path: a row evaluation (`metric`+`dataset`) given a runner target."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding, remove_arguments
from evalsubmit.analysis.rules.es102_row_option_on_taskset import ROW_OPTIONS
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.analysis.target.derive import Derivation
from evalsubmit.core.findings import Applicability, Finding, Fix, Placeholder, Severity

TASKSET = Placeholder("<workspace>/<taskset>", "default-taskset")
"""What the fix writes until the taskset to run is known (filled in, or typed by the user)."""

RULE = Rule(
    code="ES105",
    kind="runner-on-row-path",
    title="agent runner on the row-evaluation path",
    severity=Severity.ERROR,
    docs="""An agent runner runs a taskset, not rows. `submit(metric=..., dataset=...,
target=runner)` raises `TypeError` ("is an agent runner, which runs a taskset rather than rows");
on the async evaluator it fails deeper with `AttributeError`.

**Fix:** replace `metric=` and `dataset=` with `tasks="..."`, naming the stored taskset to run,
and remove the row-only options (`config=`, `field_mapping=`, ...) a taskset run refuses.
With a `default-taskset` in the configuration (in the editor, `evalsubmit.defaultTaskset`
first), the fix writes that taskset. Without one, `evalsubmit check` offers no fix (a
placeholder such as `"<workspace>/<taskset>"` would itself be a malformed reference, ES108),
and an editor whose client supports snippet edits (LSP 3.18) offers it with the taskset as a
placeholder you type over; fix-all never applies it. No fix is offered when the call is right
in another way the code runs (the target is a runner only for some call sites).

**Fix safety:** unsafe (`--fix --unsafe-fixes` only, or chosen as a quick fix): it drops the
row evaluation's `metric=` and `dataset=` for a taskset you choose.""",
    fix=Applicability.UNSAFE,
)


def check(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    derivation = fact.derivation
    if not isinstance(derivation, Derivation) or derivation.is_runner is not True:
        return []
    if not (fact.supplied("metric") and fact.supplied("dataset")):
        return []
    message = (
        f"{derivation.type_name} is an agent runner, which runs a taskset rather than "
        f"rows: pass `tasks=TasksetRef(...)` instead of `metric=` and `dataset=`"
    )
    fixes = []
    # The fix turns the call into a taskset run, so the row-only options go too (kept, each
    # would be an ES102); one written where no edit can reach it (a ** mapping) means no fix.
    row_only = {name for name in ROW_OPTIONS if fact.supplied(name)}
    removed = {"metric", "dataset", *row_only}
    if not fact.is_async and removed <= fact.keyword_spans.keys():
        edits = remove_arguments(
            ctx.parsed, fact.node, removed, replacement=f'tasks="{TASKSET.text}"'
        )
        title = "Use `tasks=` instead of `metric=` and `dataset=`"
        if row_only:
            title += f" (and remove {', '.join(f'`{n}=`' for n in sorted(row_only))})"
        fixes.append(Fix(title, edits, placeholder=TASKSET))
    return [finding(RULE, fact.argument_span("target"), message, *fixes)]


register(RULE, SubmitCheck(Phase.ROW_SHAPE, 2, check))
