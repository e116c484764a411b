"""ES107 unserializable-config: `hydra_params` holding values with no JSON form."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding, wrap
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.analysis.target.derive import Derivation
from evalsubmit.analysis.target.gym_config import ContentProblem
from evalsubmit.core.findings import Applicability, Finding, Fix, Severity

SDK_TABLE: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    (
        "refused",
        "mappings and sequences that are not `dict`/`list` subclasses; convert with `dict(...)`, "
        "`list(...)` or `str(...)` (quick fix)",
        (
            "collections.ChainMap",
            "collections.UserDict",
            "collections.UserList",
            "collections.UserString",
            "types.MappingProxyType",
        ),
    ),
    (
        "refused",
        "live process state: locks, semaphores, conditions, events, queues",
        (
            "asyncio.Semaphore",
            "asyncio.BoundedSemaphore",
            "asyncio.Lock",
            "asyncio.Event",
            "asyncio.Condition",
            "asyncio.Queue",
            "asyncio.LifoQueue",
            "asyncio.PriorityQueue",
            "threading.Lock",
            "threading.RLock",
            "threading.Event",
            "threading.Semaphore",
            "threading.BoundedSemaphore",
            "threading.Condition",
            "threading.Barrier",
        ),
    ),
    (
        "refused",
        "code and objects, not data",
        (
            "function",
            "lambda",
            "functools.partial",
            "class",
            "plain class instance",
            "types.SimpleNamespace",
        ),
    ),
    (
        "refused",
        "no JSON form in pydantic: pure paths (only a concrete `Path` is a string), time zones, "
        "`range` (quick fix: `list(...)`)",
        (
            "pathlib.PurePosixPath",
            "pathlib.PureWindowsPath",
            "datetime.timezone",
            "datetime.timezone.utc",
            "range",
        ),
    ),
    ("refused", "a `UnicodeDecodeError` escapes the SDK's probe", ("bytes (not UTF-8)",)),
    (
        "iterator",
        "drained by the SDK's JSON probe: the job receives `[]` (quick fix: `list(...)`)",
        (
            "generator expression",
            "generator",
            "iter(...)",
            "map(...)",
            "zip(...)",
            "enumerate(...)",
            "open(...)",
            "io.StringIO",
        ),
    ),
    (
        "accepted",
        "sent as JSON (never reported)",
        (
            "str",
            "int",
            "list",
            "dict",
            "collections.OrderedDict",
            "collections.defaultdict",
            "collections.Counter",
            "collections.deque",
            "collections.namedtuple",
            "typing.NamedTuple",
            "set",
            "frozenset",
            "pathlib.Path",
            "enum.Enum member",
            "enum.IntEnum member",
            "enum.StrEnum member",
            "decimal.Decimal",
            "fractions.Fraction",
            "complex",
            "re.Pattern",
            "bytes (UTF-8)",
            "bytearray (UTF-8)",
            "datetime.datetime",
            "datetime.date",
            "datetime.time",
            "datetime.timedelta",
            "uuid.UUID",
            "@dataclass instance",
            "pydantic model",
        ),
    ),
)
"""What the real SDK does with each value under ``hydra_params`` (at any depth), as ES107's docs
show it; ``tests/contract/test_refusal_table.py`` holds it to the SDK's refusal table."""

STRING_LIKE: tuple[str, ...] = (
    "str",
    "enum.Enum member",
    "enum.IntEnum member",
    "enum.StrEnum member",
    "bytes (UTF-8)",
    "bytearray (UTF-8)",
)
"""What ``env_vars`` values and ``tasks=`` accept (pydantic's lax ``str``): all else is refused."""

_VERDICTS = {
    "refused": "Refused at submit (`UnsubmittableRunnerError`)",
    "iterator": "Silently sent as `[]` (no error)",
    "accepted": "Accepted",
}


def _table() -> str:
    rows = ["| SDK 0.6.0 | Values | Why |", "|---|---|---|"]
    for verdict, why, labels in SDK_TABLE:
        shown = ", ".join(f"`{label}`" for label in labels)
        rows.append(f"| {_VERDICTS[verdict]} | {shown} | {why} |")
    return "\n".join(rows)


RULE = Rule(
    code="ES107",
    kind="unserializable-config",
    title="runner config has no JSON form",
    severity=Severity.ERROR,
    docs=f"""A submitted runner travels as JSON. Inside `hydra_params` (at any depth) functions,
lambdas, bound methods, classes, plain object instances, locks, `range`, dict views, `os.environ`,
`PurePath`s and non-UTF-8 bytes make the SDK raise `UnsubmittableRunnerError`. One-shot iterators
(generators, `map`, `zip`, `filter`, `iter`, open files) are worse: no error, the job silently
receives `[]`.

```python
hydra_params={{"seeds": (s * 7 for s in range(4))}}   # ES107: sent as []
hydra_params={{"seeds": [s * 7 for s in range(4)]}}   # fine
```

What the SDK does with each kind of value under `hydra_params`, directly or inside a list, a dict
or a tuple (the real SDK's verdicts, kept in step by a contract test):

{_table()}

`env_vars` values, `TasksetRef(...)` and `tasks=` accept only
{", ".join(f"`{x}`" for x in STRING_LIKE)} (pydantic's `str`; `tasks=` also takes a list of task
dicts): any other value of the table makes `GymRuntimeConfig(...)` fail (ES109) or is no taskset
reference (ES108).

**Fix:** materialise iterators and ranges with `list(...)` and convert `ChainMap`/`UserDict`-like
wrappers with `dict(...)`, `list(...)` or `str(...)` (quick fix); pass names or settings instead
of live objects. Reported where the value is written, once.

**Fix safety:** safe (applied by fix-all and `--fix`): the job receives the items the iterator
or range yields, or the wrapper's contents, which is what `hydra_params` asks for; a generator's
body now runs where the value is written instead of never.""",
    fix=Applicability.SAFE,
)


def check(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    derivation = fact.derivation
    if not isinstance(derivation, Derivation):
        return []
    findings = []
    for problem in derivation.content:
        anchor = problem.anchor
        if anchor is not None and anchor.path is not None and not ctx.here(anchor):
            if not ctx.outside(anchor.path):
                ctx.remote.append(
                    (anchor.path, finding(RULE, anchor.span, _message(problem, True)))
                )
                continue
            anchor = None  # written in an installed package: reported here, at `target=`
        here = anchor is not None
        span = anchor.span if anchor else fact.argument_span("target")
        key = (RULE.code, span)
        if key in ctx.reported:
            continue
        ctx.reported.add(key)
        findings.append(finding(RULE, span, _message(problem, here), *_fixes(problem, ctx, here)))
    return findings


def _message(problem: ContentProblem, here: bool) -> str:
    where = ""
    if not here and problem.anchor is not None:
        location = problem.anchor.path.name if problem.anchor.path else "another module"
        where = f" (written in {location}:{problem.anchor.span.line})"
    if problem.kind == "iterator":
        return (
            f"hydra_params holds {problem.message}{where}: it is silently sent as [] — "
            f"materialise it with list(...)"
        )
    fix = (
        " — wrap it in list(...)"
        if problem.materialize == "list"
        else (
            " — convert it with str(...)"
            if problem.materialize == "str"
            else (
                " — convert it with dict(...)"
                if problem.materialize == "dict"
                else ": pass plain data (str, numbers, lists, dicts) instead"
            )
        )
    )
    return f"hydra_params holds {problem.message}{where}, which has no JSON form{fix}"


def _fixes(problem: ContentProblem, ctx: RuleContext, here: bool) -> tuple[Fix, ...]:
    origin = problem.value_origin
    if not here or origin is None or not ctx.here(origin) or problem.anchor is None:
        return ()
    if not problem.anchor.span.contains(origin.span.line, origin.span.col):
        return ()
    wrapper = "list" if problem.kind == "iterator" else problem.materialize
    if wrapper is None:
        return ()
    return (Fix(f"Wrap in {wrapper}(...)", wrap(origin.span, f"{wrapper}(", ")")),)


register(RULE, SubmitCheck(Phase.TASKSET_CONTENT, 2, check))
