"""ES107 unserializable-config: `hydra_params` holding values with no JSON form."""

from __future__ import annotations

from evalsubmit.analysis.interp.facts import SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding, wrap
from evalsubmit.analysis.rules.registry import Phase, Rule, SubmitCheck, register
from evalsubmit.analysis.target.derive import Derivation
from evalsubmit.analysis.target.gym_config import ContentProblem
from evalsubmit.core.findings import Applicability, Finding, Fix, Severity

RULE = Rule(
    code="ES107",
    kind="unserializable-config",
    title="runner config has no JSON form",
    severity=Severity.ERROR,
    docs="""A submitted runner travels as JSON. Inside `hydra_params` (at any depth) functions,
lambdas, bound methods, classes, plain object instances, locks, `range`, dict views, `os.environ`,
`PurePath`s and non-UTF-8 bytes make the SDK raise `UnsubmittableRunnerError`. One-shot iterators
(generators, `map`, `zip`, `filter`, `iter`, open files) are worse: no error, the job silently
receives `[]`.

```python
hydra_params={"seeds": (s * 7 for s in range(4))}   # ES107: sent as []
hydra_params={"seeds": [s * 7 for s in range(4)]}   # fine
```

**Fix:** materialise iterators and ranges with `list(...)` (quick fix); pass names or settings
instead of live objects. Reported where the value is written, once.

**Fix safety:** safe (applied by fix-all and `--fix`): the job receives the items the iterator
or range yields, which is what `hydra_params` asks for; a generator's body now runs where the
value is written instead of never.""",
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
