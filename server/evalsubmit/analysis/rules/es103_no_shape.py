"""ES103 no-shape: neither `tasks`+`target` nor `metric`+`dataset` (and any async taskset)."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.core.findings import Finding, Severity
from evalsubmit.sdk.version import SDK_RELEASE, SDK_VERSION

RULE = Rule(
    code="ES103",
    kind="no-shape",
    title="submit() has neither shape",
    severity=Severity.ERROR,
    docs=f"""`submit()` needs `tasks=` + `target=` or both `metric=` and `dataset=`. With neither
(for example `submit(target=runner)`, a forgotten `tasks=`), the SDK raises `TypeError`.

The async evaluator (`AsyncNeMoPlatform(...).evaluator`) has no taskset shape at all in
{SDK_VERSION}: `await aclient.evaluator.submit(tasks=..., target=runner)` fails with `TypeError`.

**Fix:** add `tasks=TasksetRef("<workspace>/<taskset>")` for a runner, or `metric=` and
`dataset=` for rows; submit runners through the sync `NeMoPlatform` client.""",
)


def check(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    message = _missing_shape(fact)
    return [finding(RULE, fact.name_span, message)] if message is not None else []


def _missing_shape(fact: SubmitFact) -> str | None:
    metric, dataset = fact.supplied("metric"), fact.supplied("dataset")
    if fact.is_async:
        if "tasks" in fact.args.keywords:
            return (
                "the async evaluator cannot submit a taskset "
                f"run in {SDK_RELEASE} (it has no `tasks=` parameter): use the "
                "sync NeMoPlatform client's evaluator for agent runners"
            )
        if metric is False or dataset is False:
            return "the async evaluator's submit() requires both `metric=` and `dataset=`"
        return None
    if fact.supplied("tasks") is not False or metric is None or dataset is None:
        return None
    if metric and dataset:
        return None
    hint = (
        "add `tasks=TasksetRef(...)` to run this runner on a taskset"
        if fact.supplied("target")
        else "pass `tasks=` + `target=`, or `metric=` + `dataset=`"
    )
    return (
        f"submit() needs `tasks=` + `target=` or `metric=` + `dataset=`, and neither "
        f"was supplied: {hint}"
    )


register(RULE, SubmitCheck(Phase.ROW_SHAPE, 1, check))
