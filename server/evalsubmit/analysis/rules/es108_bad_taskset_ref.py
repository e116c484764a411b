"""ES108 bad-taskset-ref: a taskset reference that does not match the SDK's pattern."""

from __future__ import annotations

from collections.abc import Sequence

from evalsubmit.analysis.interp.facts import ConstructionFact, ConstructionKind, SubmitFact
from evalsubmit.analysis.models.stdlib_names import ONE_SHOT
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import ConstructionCheck, Phase, Rule, SubmitCheck, register
from evalsubmit.analysis.target.json_form import object_refusal
from evalsubmit.analysis.values.domain import (
    DictValue,
    Instance,
    Known,
    OneShot,
    Refused,
    SeqValue,
    Value,
)
from evalsubmit.analysis.values.objects import ClassRef, ClassValue, UserClass
from evalsubmit.core.findings import Finding, Severity, Span
from evalsubmit.sdk.grammar import TASKSET_REF_SYNTAX, reference_text, taskset_ref_problem

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


def _check_value(
    value: Value | None, span: Span, what: str, ctx: RuleContext, *, task_list: bool = False
) -> list[Finding]:
    """Findings for ``value`` given as a taskset reference; ``task_list``: at ``submit(tasks=)``,
    where a list of task inputs (dicts) is accepted too."""
    if value is None:
        return []
    if not isinstance(value, Known):
        got = _not_a_string(value, task_list=task_list)
        if got is None:
            return []
        return [finding(RULE, span, f'{what} must be a string like "workspace/name", got {got}')]
    text, got = reference_text(value.obj)
    if text is None:
        if task_list and _may_list_tasks(value.obj):
            return []
        return [finding(RULE, span, f'{what} must be a string like "workspace/name", got {got}')]
    why = taskset_ref_problem(text)
    if why is None:
        return []
    anchor = value.origin.span if value.origin is not None and ctx.here(value.origin) else span
    return [
        finding(
            RULE,
            anchor,
            f"malformed taskset reference {text!r}: {why}; expected [workspace/]name[#revision]",
        )
    ]


_NEVER_TASKS = frozenset(
    ONE_SHOT[name]
    for name in ("builtins.zip", "builtins.enumerate", "builtins.open", "io.open", "io.StringIO")
)
"""Iterators whose items are never task inputs (tuples, lines of text): refused as ``tasks=``."""
_STRING_BASES = frozenset({"str", "UserString", "Enum", "StrEnum", "IntEnum", "Flag", "IntFlag"})
_SEQUENCE_BASES = frozenset({"NamedTuple", "tuple", "list", "UserList", "Sequence"})
_PLAIN_BASES = frozenset({"object", "BaseModel", "dict", "TypedDict"})


def _not_a_string(value: Value, *, task_list: bool) -> str | None:
    """What ``value`` surely is when the SDK refuses it as a taskset reference (and, with
    ``task_list``, as a list of task inputs), else ``None``."""
    match value:
        case DictValue():
            return "a dict"
        case SeqValue(kind=kind, items=items):
            if not task_list or _refused_items(items):
                return f"a {kind.__name__}"
            return None
        case OneShot(reason=reason, items=items):
            if not task_list or reason in _NEVER_TASKS or (items and _refused_items(items)):
                return reason
            return None
        case Refused(reason=reason, materialize=materialize, items=items):
            if task_list and materialize == "list" and not (items and _refused_items(items)):
                return None  # a sequence: its items might be task inputs
            return reason
        case Instance(ref=ClassRef(user=UserClass() as user)):
            return _user_instance(user, task_list=task_list)
    return object_refusal(value)


def _refused_items(items: Sequence[Value]) -> bool:
    """Whether an item is surely no task input (a known value that is not a dict)."""
    return any(isinstance(item, Known) and not isinstance(item.obj, dict) for item in items)


def _may_list_tasks(obj: object) -> bool:
    if isinstance(obj, list | tuple | set | frozenset):
        return not any(not isinstance(item, dict) for item in obj)
    return False


def _user_instance(user: UserClass, *, task_list: bool) -> str | None:
    """An instance of the user's class whose bases are all known and none makes it a string
    (or, with ``task_list``, a sequence)."""
    if any(
        not isinstance(d, ClassValue) or not d.ref.qualname.endswith("dataclass")
        for d in user.decorators
    ):
        return None
    allowed = _PLAIN_BASES if task_list else _PLAIN_BASES | _SEQUENCE_BASES
    for base in user.bases:
        if not isinstance(base, ClassValue) or base.ref.user is not None:
            return None
        name = base.ref.qualname.rsplit(".", 1)[-1]
        if name in _STRING_BASES or name not in allowed:
            return None
    return f"an instance of {user.name}"


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
    if isinstance(value, Known) and value.obj is None:
        return []  # no taskset: the submit's shape is other rules' business
    span = fact.argument_span("tasks")
    return _check_value(value, span, "`tasks=`", ctx, task_list=True)


register(
    RULE,
    ConstructionCheck(1, check_construction),
    SubmitCheck(Phase.TASKSET_CONTENT, 3, check_submit),
)
