"""Fix everything: apply the first fix of every finding, round after round (a fix may overlap
another until that one is applied), never an edit that would break a module that parsed."""

from __future__ import annotations

import ast
from collections.abc import Callable

from evalsubmit.analysis.report import ModuleReport
from evalsubmit.core.edits import apply_edits, overlaps
from evalsubmit.core.findings import Edit

FIX_ALL_ROUNDS = 5


def fix_all(text: str, report: ModuleReport, analyze: Callable[[str], ModuleReport]) -> str | None:
    """The text with every fix applied, or None when nothing changes. ``analyze`` re-analyses
    the text between rounds."""
    original = text
    parsed = parses(text)
    for _ in range(FIX_ALL_ROUNDS):
        accepted: list[Edit] = []
        for finding in sorted(report.findings, key=lambda f: f.span):
            if not finding.fixes:
                continue
            edits = list(finding.fixes[0].edits)
            if any(overlaps(e.span, a.span) for e in edits for a in accepted):
                continue
            if parsed and not parses(apply_edits(text, [*accepted, *edits])):
                continue
            accepted += edits
        if not accepted:
            break
        text = apply_edits(text, accepted)
        report = analyze(text)
    return text if text != original else None


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True
