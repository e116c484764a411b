"""Running the registered checks over a module's facts, in the SDK's order (registry.Phase).

A disabled rule (``enabled(code)`` false) is not run, except in the shape phases: there the
SDK raises at the first failing check, so a disabled check that finds something still stops
the call (reporting nothing), exactly as the SDK would never reach the checks after it.
"""

from __future__ import annotations

from collections.abc import Callable

from evalsubmit.analysis.interp.facts import ConstructionFact, SubmitFact
from evalsubmit.analysis.rules.context import ModuleContext, RuleContext
from evalsubmit.analysis.rules.registry import (
    Phase,
    construction_checks,
    module_checks,
    submit_checks,
)
from evalsubmit.core.findings import Finding, Occasion
from evalsubmit.core.records import replace

Enabled = Callable[[str], bool]


def run_rules(ctx: RuleContext, enabled: Enabled) -> list[Finding]:
    findings: list[Finding] = []
    checks = [check for rule, check in construction_checks() if enabled(rule.code)]
    for construction in ctx.facts.constructions:
        for check in checks:
            found = check.run(construction, ctx)
            if found:
                findings.extend(_in(construction.context, _here(construction, found, ctx)))
    for submit in ctx.facts.submits:
        found = _check_submit(submit, ctx, enabled)
        if found:
            findings.extend(_in(submit.context, _here(submit, found, ctx)))
    return findings


def _here(
    fact: ConstructionFact | SubmitFact, findings: list[Finding], ctx: RuleContext
) -> list[Finding]:
    """Findings of a fact in another module's code (a sibling's helper walked for a call made
    here) count only where they point at something written here (the argument at the call)."""
    if fact.path is ctx.path or fact.path == ctx.path:  # mostly the same object: no Path.__eq__
        return findings
    written = {o.span for o in fact.args.keyword_origins.values() if o.path == ctx.path}
    return [f for f in findings if f.span in written]


def run_module_rules(ctx: ModuleContext, enabled: Enabled) -> list[Finding]:
    """The module checks: once per analysis of a module, not per statement group."""
    return [
        found for rule, check in module_checks() if enabled(rule.code) for found in check.run(ctx)
    ]


def _in(context: tuple[Occasion, ...], findings: list[Finding]) -> list[Finding]:
    """The findings of a fact recorded in a walk of ``context`` (a loop element, a call site)."""
    if not context:
        return findings
    return [replace(f, context=context) for f in findings]


def _check_submit(fact: SubmitFact, ctx: RuleContext, enabled: Enabled) -> list[Finding]:
    if fact.is_async:
        return _first_failure(Phase.ROW_SHAPE, fact, ctx, enabled) or []
    tasks = fact.supplied("tasks")
    if tasks is None:
        return []
    if not tasks:
        return _first_failure(Phase.ROW_SHAPE, fact, ctx, enabled) or []
    refused = _first_failure(Phase.TASKSET_SHAPE, fact, ctx, enabled)
    if refused is not None:
        return refused
    return [
        found
        for rule, check in submit_checks(Phase.TASKSET_CONTENT)
        if enabled(rule.code)
        for found in check.run(fact, ctx)
    ]


def _first_failure(
    phase: Phase, fact: SubmitFact, ctx: RuleContext, enabled: Enabled
) -> list[Finding] | None:
    """The findings of the first check that fails the call (none if its rule is disabled), or
    None when the call passes every check of the phase."""
    for rule, check in submit_checks(phase):
        found = check.run(fact, ctx)
        if found:
            return found if enabled(rule.code) else []
    return None
