"""ES105 runner-on-row-path: a row evaluation (`metric`+`dataset`) given a runner target."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding, remove_arguments
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.analysis.target.derive import Derivation
from evalsubmit.core.findings import Applicability, Finding, Fix, Severity

RULE = Rule(
    code="ES105",
    kind="runner-on-row-path",
    title="agent runner on the row-evaluation path",
    severity=Severity.ERROR,
    docs="""An agent runner runs a taskset, not rows. `submit(metric=..., dataset=...,
target=runner)` raises `TypeError` ("is an agent runner, which runs a taskset rather than rows");
on the async evaluator it fails deeper with `AttributeError`.

**Fix:** replace `metric=` and `dataset=` with `tasks="<workspace>/<taskset>"` (quick fix; fill in
the stored taskset to run).

**Fix safety:** unsafe (`--fix --unsafe-fixes` only, or chosen as a quick fix): it writes a
placeholder taskset reference that you must fill in.""",
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
    if not fact.is_async and {"metric", "dataset"} <= fact.keyword_spans.keys():
        edits = remove_arguments(
            ctx.parsed,
            fact.node,
            {"metric", "dataset"},
            replacement='tasks="<workspace>/<taskset>"',
        )
        fixes.append(Fix("Use `tasks=` instead of `metric=` and `dataset=`", edits))
    return [finding(RULE, fact.argument_span("target"), message, *fixes)]


register(RULE, SubmitCheck(Phase.ROW_SHAPE, 2, check))
