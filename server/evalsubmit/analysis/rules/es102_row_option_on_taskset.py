"""ES102 row-option-on-taskset: ``config=``/``field_mapping=``/… on a taskset run."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding, remove_arguments, stamped
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.core.findings import Applicability, Finding, Fix, Severity
from evalsubmit.core.records import replace
from evalsubmit.sdk.releases import SUPPORTED

ROW_OPTIONS = SUPPORTED.row_options

RULE = Rule(
    code="ES102",
    kind="row-option-on-taskset",
    title="row-only option on a taskset submission",
    severity=Severity.ERROR,
    docs="""A taskset run is configured entirely by its runner. `config`, `field_mapping`,
`prompt_template` and `metric_bundle_packager` belong to row evaluations; the SDK raises
`TypeError` listing every one supplied. Passing `None` is fine.

```python
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner,
                        config=RunConfig(parallelism=16))  # ES102
```

**Fix:** remove the option (quick fix); set concurrency on the runner's `GymRuntimeConfig`.

**Fix safety:** safe (applied by fix-all and `--fix`): the call is a taskset run either way
(`tasks=` + `target=`), and a row-only option has no meaning there.""",
    fix=Applicability.SAFE,
)


def check(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    offending = [name for name in ROW_OPTIONS if fact.supplied(name)]
    findings = []
    for name in offending:
        message = (
            f"`{name}=` is a row-evaluation option; a taskset run is configured by its "
            f"runner, so the SDK refuses it: remove `{name}=`"
        )
        fixes: tuple[Fix, ...] = ()
        if name in fact.keyword_spans:
            edits = remove_arguments(ctx.parsed, fact.node, {name})
            fixes = (Fix(f"Remove `{name}=`", edits),)
        findings.append(finding(RULE, fact.argument_span(name), message, *fixes))
    explicit = [name for name in offending if name in fact.keyword_spans]
    if len(explicit) > 1:
        every = Fix(
            "Remove all row-only options", remove_arguments(ctx.parsed, fact.node, set(explicit))
        )
        findings = [replace(f, fixes=(*f.fixes, *stamped(RULE, (every,)))) for f in findings]
    return findings


register(RULE, SubmitCheck(Phase.TASKSET_SHAPE, 3, check))
