"""Fix everything: the one fix engine of the editor's fix-all and ``evalsubmit check --fix``.

Round after round (a fix may overlap another until that one is applied, and a fix may reveal a
finding that a fix mends), the first applicable fix of every finding is applied when it
overlaps no fix already taken this round and the module still parses with it. Bounded like
ruff (``MAX_ROUNDS``). A module that does not parse is not fixed at all (as ruff: the fixes
were computed on a repaired reading of it, and nothing could prove an edit harmless); a module
that parses is never left unparsable; and when anything goes wrong (the re-analysis raises, the
result does not parse) the original text is kept and the reason returned, never a half-fixed
module.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import field

from evalsubmit.analysis.report import ModuleReport
from evalsubmit.core.edits import apply_edits, overlaps
from evalsubmit.core.findings import Edit, Finding
from evalsubmit.core.records import record

MAX_ROUNDS = 10


@record
class FixOutcome:
    text: str
    """The fixed text; the original when nothing applied or the fixes were given up."""
    report: ModuleReport
    """The analysis of ``text``: the findings that remain."""
    fixed: int = 0
    """How many findings a fix was applied for (0 when given up)."""
    failure: str | None = None
    """Why the fixes were given up (the original text is kept), for a warning."""
    rejected: list[Finding] = field(default_factory=list)
    """Findings whose fix was not applied because the module would no longer parse."""
    converged: bool = True
    """False when fixes still applied in the last allowed round."""
    applied: tuple[tuple[str, str], ...] = ()
    """The code and name of each finding a fix was applied for (``--show-fixes``)."""

    @property
    def changed(self) -> bool:
        return self.fixed > 0


def fix_source(
    text: str,
    report: ModuleReport,
    analyze: Callable[[str], ModuleReport],
    *,
    unsafe: bool = False,
) -> FixOutcome:
    """Apply the fixes of ``report`` (the analysis of ``text``) to a fixed point. ``analyze``
    re-analyses the text between rounds (the caller's project, options and path)."""
    original, original_report = text, report
    if not parses(text):
        if any(f.applicable_fix(unsafe) for f in report.findings):
            why = "the module does not parse: fix its syntax first"
            return FixOutcome(original, original_report, failure=why)
        return FixOutcome(original, original_report)
    applied: list[tuple[str, str]] = []
    rejected: dict[tuple[str, object], Finding] = {}
    for _ in range(MAX_ROUNDS):
        accepted: list[Edit] = []
        for finding in sorted(report.findings, key=lambda f: (f.span, f.code)):
            fix = finding.applicable_fix(unsafe)
            if fix is None or not fix.edits:
                continue
            edits = list(fix.edits)
            if any(overlaps(e.span, a.span) for e in edits for a in accepted):
                continue  # next round, on the text this round produces
            if not parses(apply_edits(text, [*accepted, *edits])):
                rejected[(finding.code, finding.span)] = finding
                continue
            accepted += edits
            applied.append((finding.code, finding.kind))
        if not accepted:
            break
        text = apply_edits(text, accepted)
        try:
            report = analyze(text)
        except Exception as error:  # a fix must never cost the user their findings
            why = f"re-analysing the fixed text failed ({type(error).__name__}: {error})"
            return FixOutcome(original, original_report, failure=why)
    else:
        if any(f.applicable_fix(unsafe) for f in report.findings):
            return _finish(original, original_report, text, report, applied, rejected, False)
    return _finish(original, original_report, text, report, applied, rejected, True)


def _finish(
    original: str,
    original_report: ModuleReport,
    text: str,
    report: ModuleReport,
    applied: list[tuple[str, str]],
    rejected: dict[tuple[str, object], Finding],
    converged: bool,
) -> FixOutcome:
    # Every accepted edit set was checked to parse; this is the guarantee itself, checked once
    # more on the result, so a bug in the per-round check can never write a broken module.
    if text != original and not parses(text):
        why = "the fixed text would not parse"
        return FixOutcome(original, original_report, failure=why)
    if text == original:
        applied = []
    remaining = {(f.code, f.span) for f in report.findings}
    still = [f for key, f in rejected.items() if key in remaining]
    return FixOutcome(
        text, report, len(applied), rejected=still, converged=converged, applied=tuple(applied)
    )


def fix_all(text: str, report: ModuleReport, analyze: Callable[[str], ModuleReport]) -> str | None:
    """The editor's fix-all: the text with every safe fix applied, or None when nothing
    changes (the same engine as ``evalsubmit check --fix``)."""
    outcome = fix_source(text, report, analyze)
    return outcome.text if outcome.changed and outcome.text != text else None


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True
