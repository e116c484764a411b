"""ES108 bad-taskset-ref: a taskset reference that does not match the SDK's pattern."""

from __future__ import annotations

import re

from evalsubmit.analysis.interp.facts import ConstructionFact, SubmitFact
from evalsubmit.analysis.rules import Rule, register
from evalsubmit.analysis.rules.base import RuleContext, finding
from evalsubmit.analysis.values.domain import Known, Value
from evalsubmit.core.findings import Finding, Severity, Span

PATTERN = re.compile(r"^[\w\-.]+(/[\w\-.]+)?(#[\w\-.]+)?$")

RULE = register(
    Rule(
        code="ES108",
        kind="bad-taskset-ref",
        title="malformed taskset reference",
        severity=Severity.ERROR,
        docs="""A taskset reference is `[workspace/]name[#revision]`: letters, digits,
`_`, `-` and `.` in each part (pattern `^[\\w\\-.]+(/[\\w\\-.]+)?(#[\\w\\-.]+)?$`).
`TasksetRef(...)` validates at construction; a plain string passed as `tasks=` fails
inside `submit()`.

```python
TasksetRef("qa team/smoke")   # ES108: space
TasksetRef("org/qa/smoke")    # ES108: two slashes
TasksetRef("qa/smoke#")       # ES108: empty revision
```

**Fix:** write `workspace/name` or `workspace/name#tag`.""",
    )
)


def problem(text: str) -> str | None:
    """Why a reference string is malformed, or ``None`` when valid."""
    if PATTERN.match(text) and not text.endswith("\n"):
        return None
    if not text:
        return "it is empty"
    if text != text.strip():
        return "it has leading or trailing whitespace"
    if text.count("/") > 1:
        return "it has more than one `/` (the form is workspace/name)"
    if text.endswith("#"):
        return "its `#revision` is empty"
    if text.count("#") > 1:
        return "it has more than one `#`"
    if text.startswith("/") or text.endswith("/") or "//" in text:
        return "a workspace or name part is empty"
    bad = sorted({c for c in text if not (c.isalnum() or c in "_-./#")})
    shown = ", ".join(repr(c) for c in bad) if bad else "a character outside [\\w-.]"
    return f"it contains {shown}"


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
    why = problem(value.obj)
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
    span = fact.keyword_spans.get("tasks", fact.name_span)
    if isinstance(value, Known) and isinstance(value.obj, str):
        return _check_value(value, span, "`tasks=`", ctx)
    return []
