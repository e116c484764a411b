"""ES109 invalid-config-value: a ``GymRuntimeConfig`` the SDK rejects at construction."""

from __future__ import annotations

import pathlib

from evalsubmit.analysis.interp.facts import ConstructionFact, ConstructionKind, SubmitFact
from evalsubmit.analysis.rules.context import RuleContext
from evalsubmit.analysis.rules.edits import finding, wrap
from evalsubmit.analysis.rules.registry import (
    ConstructionCheck,
    Phase,
    Rule,
    SubmitCheck,
    register,
)
from evalsubmit.analysis.target.derive import Derivation
from evalsubmit.analysis.target.gym_config import ConfigIssue, evaluate_config
from evalsubmit.analysis.values.domain import DictValue, Instance, Known, SeqValue
from evalsubmit.core.findings import Applicability, Edit, Finding, Fix, Severity
from evalsubmit.sdk import names as sdk

RULE = Rule(
    code="ES109",
    kind="invalid-config-value",
    title="invalid GymRuntimeConfig value",
    severity=Severity.ERROR,
    docs="""`GymRuntimeConfig` is a strict pydantic model (`extra="forbid"`): `agent`,
`agent_config` and `resources_server` are required strings; `num_repeats` and `concurrency` are
integers ≥ 1; the timeouts are numbers > 0; `env_vars` maps strings to strings; wire-only fields
(`environment`, `env_secrets`, `agent_ref_name`) and typos are refused. `GymAgentTaskRunner`
needs `config=` to be a `GymRuntimeConfig`, not a dict.

The constructor validates; setting a field afterwards (`cfg.num_repeats = 0`) does not, and
neither do `model_construct` and `model_copy(update=...)`. The SDK validates such a config
again when its runner is submitted, so these are reported where the value is written when the
config reaches a `submit()`, and not at all when it never does. Only the model's fields are
validated then: `model_construct` ignores a key that is no field, and `model_copy(update=...)`
keeps it out of the dump the SDK validates, so such a key never reaches the job and is not
reported.

```python
env_vars={"CUDA_VISIBLE_DEVICES": 0,          # ES109: quote it, "0"
          "HF_HOME": Path("/models/hf")}      # ES109: str(Path(...))
```

**Fix:** quick fixes quote numbers and wrap `Path`s in `str(...)` inside `env_vars`; otherwise
correct the value as the message says.

**Fix safety:** safe (applied by fix-all and `--fix`): an environment variable is a string in
the process that receives it, so `"0"` and `str(path)` are the values it would see.""",
    fix=Applicability.SAFE,
)


def check_construction(fact: ConstructionFact, ctx: RuleContext) -> list[Finding]:
    if fact.kind is ConstructionKind.GYM_RUNNER:
        return _check_runner(fact)
    if fact.kind is not ConstructionKind.GYM_CONFIG:
        return []
    assert isinstance(fact.value, Instance)
    evaluation = evaluate_config(fact.args, fact.value.origin)
    findings = []
    for issue in evaluation.issues:
        here = issue.anchor is not None and ctx.here(issue.anchor)
        span = issue.anchor.span if here and issue.anchor else fact.span
        if issue.pydantic_type == "missing":
            span = ctx.parsed.line_span(fact.span.line)
        findings.append(finding(RULE, span, issue.message, *_fixes(issue, ctx)))
    return findings


def check_submit(fact: SubmitFact, ctx: RuleContext) -> list[Finding]:
    """A config is validated by its constructor, not when a field is set or a value stored
    into it afterwards (``cfg.num_repeats = 0``, ``cfg.env_vars["X"] = 1``), nor when it is
    built without one (``model_construct``, ``model_copy(update=...)``): the SDK validates it
    again when its runner is submitted, and those problems are reported there."""
    derivation = fact.derivation
    if not isinstance(derivation, Derivation) or derivation.config is None:
        return []
    issues = derivation.config.issues
    if not issues or not (derivation.unvalidated or derivation.constructed):
        return []
    if derivation.constructed is not None:
        written = evaluate_config(derivation.constructed, derivation.config_origin).issues
        reported = {(issue.anchor, issue.message) for issue in written}  # at construction
        issues = [issue for issue in issues if (issue.anchor, issue.message) not in reported]
    findings = []
    for issue in issues:
        here = issue.anchor is not None and ctx.here(issue.anchor)
        span = issue.anchor.span if here and issue.anchor else fact.argument_span("target")
        if derivation.unvalidated:
            message = (
                f"{issue.message} (this config skipped validation; the SDK refuses it at submit)"
            )
            findings.append(finding(RULE, span, message))
        else:
            findings.append(finding(RULE, span, issue.message, *_fixes(issue, ctx)))
    return findings


def _check_runner(fact: ConstructionFact) -> list[Finding]:
    if fact.positional_spans:
        return [
            finding(
                RULE,
                fact.positional_spans[0],
                "GymAgentTaskRunner takes its config as a keyword: GymAgentTaskRunner(config=...)",
            )
        ]
    config = fact.args.keywords.get("config")
    if config is None:
        return (
            []
            if fact.args.star_unknown
            else [
                finding(RULE, fact.span, "GymAgentTaskRunner needs `config=GymRuntimeConfig(...)`")
            ]
        )
    not_config = isinstance(config, (DictValue, Known, SeqValue)) or (
        isinstance(config, Instance)
        and config.ref.user is None
        and config.ref.qualname != sdk.GYM_CONFIG
        and sdk.is_known_sdk_class(config.ref.qualname)
    )
    if not not_config:
        return []
    kind = "dict" if isinstance(config, DictValue) else type(config).__name__
    if isinstance(config, Instance):
        kind = config.ref.qualname.rsplit(".", 1)[-1]
    elif isinstance(config, (Known, SeqValue)):
        kind = type(config.obj).__name__ if isinstance(config, Known) else config.kind.__name__
    return [
        finding(
            RULE,
            fact.argument_span("config"),
            f"`config=` must be a GymRuntimeConfig, got {kind}: the runner stores it "
            f"and the SDK fails at submit; use GymRuntimeConfig(**...)",
        )
    ]


def _fixes(issue: ConfigIssue, ctx: RuleContext) -> tuple[Fix, ...]:
    value = issue.value
    if not isinstance(value, Known) or value.origin is None or not ctx.here(value.origin):
        return ()
    if issue.anchor is None or not issue.anchor.span.contains(
        value.origin.span.line, value.origin.span.col
    ):
        return ()
    if "environment variable" not in issue.message:
        return ()
    span = value.origin.span
    if isinstance(value.obj, pathlib.PurePath):
        return (Fix("Wrap in str(...)", wrap(span, "str(", ")")),)
    if isinstance(value.obj, (int, float)) and not isinstance(value.obj, bool):
        text = ctx.text(span)
        return (Fix(f'Quote it: "{text}"', (Edit(span, f'"{text}"'),)),)
    return ()


register(
    RULE,
    ConstructionCheck(2, check_construction),
    SubmitCheck(Phase.TASKSET_CONTENT, 4, check_submit),
)
