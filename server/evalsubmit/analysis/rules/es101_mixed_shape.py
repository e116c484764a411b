"""ES101 mixed-shape: ``submit(tasks=..., metric=... / dataset=...)``."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding, remove_arguments
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.core.findings import Applicability, Finding, Fix, Severity

RULE = Rule(
    code="ES101",
    kind="mixed-shape",
    title="submit() mixes the taskset and row shapes",
    severity=Severity.ERROR,
    docs="""`submit()` takes either `tasks=` + `target=` (a taskset run of a live
agent runner) or `metric=` + `dataset=` (a row evaluation), never both. The SDK raises
`TypeError` before it looks at anything else.

```python
client.evaluator.submit(tasks=TasksetRef("qa/nightly"), target=runner, metric=em)  # ES101
```

**Fix:** drop `metric=`/`dataset=` for a taskset run (offered as a quick fix), or drop `tasks=`
for a row evaluation.

**Fix safety:** unsafe (applied by `--fix --unsafe-fixes` only, or chosen as a quick fix): it
takes the call for a taskset run and deletes `metric=`/`dataset=` with the expressions written
there, while you may have meant a row evaluation.""",
    fix=Applicability.UNSAFE,
)


def check(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    extra = {name for name in ("metric", "dataset") if fact.supplied(name)}
    if not extra:
        return []
    listed = " and ".join(f"`{name}=`" for name in sorted(extra))
    message = (
        f"submit() takes either `tasks=` + `target=` or `metric=` + `dataset=`, not both: "
        f"remove {listed} for a taskset run, or `tasks=` for a row evaluation"
    )
    fix = Fix(f"Remove {listed}", remove_arguments(ctx.parsed, fact.node, extra))
    return [finding(RULE, fact.name_span, message, fix)]


register(RULE, SubmitCheck(Phase.TASKSET_SHAPE, 1, check))
