"""The rule registry: every diagnostic evalsubmit can report, with its stable code, its docs,
and the checks that produce it, each declaring the phase it runs in.

Phases follow the SDK's own order of checks (reference §4, §8):

* ``CONSTRUCTION``: every construction of an SDK object (``TasksetRef``, ``GymRuntimeConfig``,
  a runner), submitted or not; checks are independent of each other.
* ``TASKSET_SHAPE``: a sync ``submit()`` with ``tasks=``. The SDK raises at the first failing
  check, so only the first check (by ``order``) that finds something reports.
* ``TASKSET_CONTENT``: a sync taskset call that passed the shape checks; independent checks of
  the runner's content and the plain-string taskset.
* ``ROW_SHAPE``: a call without ``tasks=`` (and every async call); first failure only.
* ``MODULE``: once per analysed module, about the module and its environment (the installed
  SDK), whatever its statements hold.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from enum import StrEnum
from typing import Any, Final

from evalsubmit.analysis.interp.facts import ConstructionFact, SubmitFact
from evalsubmit.analysis.rules.context import ModuleContext, RuleContext
from evalsubmit.core.findings import Applicability, Finding, Severity
from evalsubmit.core.records import Record, replace

DOCS_BASE = "https://github.com/evalsubmit/evalsubmit/blob/main/docs/rules.md"


class Phase(StrEnum):
    CONSTRUCTION = "construction"
    TASKSET_SHAPE = "taskset-shape"
    TASKSET_CONTENT = "taskset-content"
    ROW_SHAPE = "row-shape"
    MODULE = "module"


class ConstructionCheck(Record):
    """A check of every SDK construction (phase ``CONSTRUCTION``)."""

    __slots__ = ("order", "phase", "run")
    order: Final[int]
    run: Final[Callable[[ConstructionFact, RuleContext], list[Finding]]]
    phase: Final[Phase]

    def __init__(
        self,
        order: int,
        run: Callable[[ConstructionFact, RuleContext], list[Finding]],
        phase: Phase = Phase.CONSTRUCTION,
    ) -> None:
        self.order = order
        self.run = run
        self.phase = phase


class SubmitCheck(Record):
    """A check of ``submit()`` calls in one of the call phases."""

    __slots__ = ("order", "phase", "run")
    phase: Final[Phase]
    order: Final[int]
    """Position in the SDK's order of checks within the phase."""
    run: Final[Callable[[SubmitFact, RuleContext], list[Finding]]]

    def __init__(
        self, phase: Phase, order: int, run: Callable[[SubmitFact, RuleContext], list[Finding]]
    ) -> None:
        self.phase = phase
        self.order = order
        self.run = run


class ModuleCheck(Record):
    """A check of a whole module, run once per analysis (phase ``MODULE``)."""

    __slots__ = ("order", "phase", "run")
    order: Final[int]
    run: Final[Callable[[ModuleContext], list[Finding]]]
    phase: Final[Phase]

    def __init__(
        self, order: int, run: Callable[[ModuleContext], list[Finding]], phase: Phase = Phase.MODULE
    ) -> None:
        self.order = order
        self.run = run
        self.phase = phase


Check = ConstructionCheck | SubmitCheck | ModuleCheck


class Rule(Record):
    """A rule: its code, documentation and checks."""

    __slots__ = ("checks", "code", "docs", "fix", "kind", "severity", "title")
    code: Final[str]
    kind: Final[str]
    title: Final[str]
    severity: Final[Severity]
    docs: Final[str]
    """Markdown: what it catches, why the SDK refuses it, an example, the fix."""
    checks: Final[tuple[Check, ...]]
    fix: Final[Applicability | None]
    """The applicability of every quick fix the rule offers (None: it offers none). Declared
    here, once, so the docs, ``--unsafe-fixes`` and the fixes themselves cannot disagree."""

    def __init__(
        self,
        code: str,
        kind: str,
        title: str,
        severity: Severity,
        docs: str,
        checks: tuple[Check, ...] = (),
        fix: Applicability | None = None,
    ) -> None:
        self.code = code
        self.kind = kind
        self.title = title
        self.severity = severity
        self.docs = docs
        self.checks = checks
        self.fix = fix

    @property
    def url(self) -> str:
        return f"{DOCS_BASE}#{self.code.lower()}-{self.kind}"


RULES: dict[str, Rule] = {}

_ordered: dict[object, tuple[tuple[Rule, Any], ...]] = {}
"""The ordered check lists, made once after the last ``register`` (they are asked for once per
statement group and per ``submit()``: ~2,400 times in a cold analysis of a 5,000-line job)."""


def register(rule: Rule, *checks: Check) -> Rule:
    """Add ``rule`` with its ``checks`` (call at the end of the rule's module)."""
    if rule.code in RULES:
        raise ValueError(f"rule code {rule.code} registered twice")
    registered = replace(rule, checks=checks)
    RULES[rule.code] = registered
    _ordered.clear()
    return registered


def construction_checks() -> tuple[tuple[Rule, ConstructionCheck], ...]:
    """Every construction check with its rule, in order."""
    return _checks(ConstructionCheck, lambda check: isinstance(check, ConstructionCheck))


def submit_checks(phase: Phase) -> tuple[tuple[Rule, SubmitCheck], ...]:
    """Every check of the call phase ``phase`` with its rule, in the SDK's order."""
    return _checks(phase, lambda check: isinstance(check, SubmitCheck) and check.phase is phase)


def _checks(kind: object, wanted: Callable[[Check], bool]) -> tuple[tuple[Rule, Any], ...]:
    """The checks ``wanted`` picks, with their rules, in order (made once per ``kind``)."""
    found = _ordered.get(kind)
    if found is None:
        found = _ordered[kind] = _sorted(
            (rule, check) for rule in RULES.values() for check in rule.checks if wanted(check)
        )
    return found


def _sorted(pairs: Iterable[tuple[Rule, Any]]) -> tuple[tuple[Rule, Any], ...]:
    return tuple(sorted(pairs, key=lambda pair: (pair[1].order, pair[0].code)))


def module_checks() -> list[tuple[Rule, ModuleCheck]]:
    """Every module check with its rule, in order."""
    found = [
        (rule, check)
        for rule in RULES.values()
        for check in rule.checks
        if isinstance(check, ModuleCheck)
    ]
    return sorted(found, key=lambda pair: (pair[1].order, pair[0].code))


def rules_markdown() -> str:
    """docs/rules.md, generated from the registry (a test keeps the file in step)."""
    parts = [
        "# evalsubmit rules\n",
        "Fix: *safe* fixes are applied by the editor's fix-all and `evalsubmit check --fix`;",
        "*unsafe* ones are offered as quick fixes and applied by `--fix --unsafe-fixes` only.\n",
        "| Code | Kind | Severity | Fix | Title |",
        "|---|---|---|---|---|",
    ]
    parts += [
        f"| [{r.code}](#{r.code.lower()}-{r.kind}) | `{r.kind}` | {r.severity} "
        f"| {r.fix or '-'} | {r.title} |"
        for r in RULES.values()
    ]
    for rule in RULES.values():
        fix = f"; fix: {rule.fix}" if rule.fix else ""
        parts.append(f"\n## {rule.code} {rule.kind}\n\n**{rule.title}** ({rule.severity}{fix})\n")
        parts.append(rule.docs)
    return "\n".join(parts) + "\n"
