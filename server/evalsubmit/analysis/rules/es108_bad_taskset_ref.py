"""ES108 bad-taskset-ref: a taskset reference that does not match the SDK's pattern."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import ConstructionFact, ConstructionKind, SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import ConstructionCheck, Phase, Rule, SubmitCheck, register
from evalsubmit.analysis.values.domain import Known, Value
from evalsubmit.core.findings import Finding, Severity, Span
from evalsubmit.sdk.grammar import TASKSET_REF_SYNTAX, taskset_ref_problem

RULE = Rule(
    code="ES108",
    kind="bad-taskset-ref",
    title="malformed taskset reference",
    severity=Severity.ERROR,
    docs=f"""A taskset reference is `[workspace/]name[#revision]`: letters, digits,
`_`, `-` and `.` in each part (pattern `{TASKSET_REF_SYNTAX}`).
`TasksetRef(...)` validates at construction; a plain string passed as `tasks=` fails
inside `submit()`.

```python
TasksetRef("qa team/smoke")   # ES108: space
TasksetRef("org/qa/smoke")    # ES108: two slashes
TasksetRef("qa/smoke#")       # ES108: empty revision
```

**Fix:** write `workspace/name` or `workspace/name#tag`.""",
)


def _check_value(value: Value | None, span: Span, what: str, ctx: RuleContext) -> list[Finding]:
    if isinstance(value, Known) and isinstance(value.obj, bytes):
        try:
            value = Known(value.obj.decode(), value.origin)
        except UnicodeDecodeError:
            return []
    if not isinstance(value, Known):
        return []
    if not isinstance(value.obj, str):
        return [
            finding(
                RULE,
                span,
                f'{what} must be a string like "workspace/name", got {type(value.obj).__name__}',
            )
        ]
    why = taskset_ref_problem(value.obj)
    if why is None:
        return []
    anchor = value.origin.span if value.origin is not None and ctx.here(value.origin) else span
    return [
        finding(
            RULE,
            anchor,
            f"malformed taskset reference {value.obj!r}: {why}; expected "
            f"[workspace/]name[#revision]",
        )
    ]


def check_construction(fact: ConstructionFact, ctx: RuleContext) -> list[Finding]:
    if fact.kind is not ConstructionKind.TASKSET_REF:
        return []
    args = fact.args
    value = args.positional[0] if args.positional else args.keywords.get("root")
    if value is None and not args.positional and not args.keywords and not args.star_unknown:
        return [
            finding(
                RULE,
                fact.span,
                'TasksetRef() needs the reference string, e.g. TasksetRef("workspace/name")',
            )
        ]
    return _check_value(value, fact.span, "TasksetRef's reference", ctx)


def check_submit(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    value = fact.value("tasks")
    span = fact.argument_span("tasks")
    if isinstance(value, Known) and isinstance(value.obj, str):
        return _check_value(value, span, "`tasks=`", ctx)
    return []


register(
    RULE,
    ConstructionCheck(1, check_construction),
    SubmitCheck(Phase.TASKSET_CONTENT, 3, check_submit),
)
