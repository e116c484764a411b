"""One finding per place and message, however many walks found it.

A statement is walked several times when it runs on several occasions (once per known element
of a loop, once per call site of a helper): each walk may find the same finding. They are
reported once, saying in which walks it holds, or plainly when it holds however the code runs.
"""

from __future__ import annotations

from evalsubmit.core.findings import Finding, Occasion, Site, Span
from evalsubmit.core.records import replace


def deduplicated(findings: list[Finding]) -> list[Finding]:
    """One finding per (code, span, message). One that holds however the code runs wins over
    the same one found only in some walks; walks that cover every element of a loop count as
    the loop itself; the walks left are named together in the message."""
    groups: dict[tuple[str, Span, str], list[Finding]] = {}
    for finding in findings:
        groups.setdefault((finding.code, finding.span, finding.message), []).append(finding)
    unique = []
    for members in groups.values():
        contexts = _covering(list(dict.fromkeys(f.context for f in members)))
        if () in contexts:
            first = members[0]
            unique.append(first if first.context == () else replace(first, context=()))
            continue
        first = members[0]
        # A fix with a placeholder names a value for the whole call (ES105: the taskset it is
        # to run), right only when the finding holds however the code runs: in another walk
        # (another call site of the helper holding the call) the call may be right as it is.
        fixes = tuple(fix for fix in first.fixes if fix.placeholder is None)
        # two calls on one line are two walks that read alike: named once
        labels = list(dict.fromkeys(_labels(context, first.span) for context in contexts))
        if "" in labels:  # found at a call site it was walked for: holds there, plainly
            unique.append(replace(first, context=(), fixes=fixes))
            continue
        message = f"{first.message} ({'; '.join(labels)})"
        unique.append(replace(first, message=message, context=(), fixes=fixes))
    return unique


def _labels(context: tuple[Occasion, ...], span: Span) -> str:
    """The walks a finding was found in, but a call site it is reported at."""
    named = [w.label for w in context if not (w.lines and w.lines[0] <= span.line <= w.lines[1])]
    return ", ".join(map(str, named))


_Around = tuple[tuple[Occasion, ...], Site, tuple[Occasion, ...]]
"""A loop's element walk seen from outside: the walks before it, the loop, the walks after."""


def _covering(contexts: list[tuple[Occasion, ...]]) -> list[tuple[Occasion, ...]]:
    """Drop the walk of a loop's element, wherever it stands in a context (a call site walked
    inside the loop comes after it), when every element of that loop is there with the same
    walks around it (repeatedly, for nested loops)."""
    while True:
        seen: dict[_Around, set[int]] = {}
        totals: dict[_Around, int] = {}
        for context in contexts:
            for at, walk in enumerate(context):
                if walk.total:
                    around = (context[:at], walk.group, context[at + 1 :])
                    seen.setdefault(around, set()).add(walk.index)
                    totals[around] = walk.total
        complete = {around for around, indices in seen.items() if len(indices) == totals[around]}
        if not complete:
            return contexts
        folded: list[tuple[Occasion, ...]] = []
        for context in contexts:
            shorter = next(
                (
                    context[:at] + context[at + 1 :]
                    for at, walk in enumerate(context)
                    if walk.total and (context[:at], walk.group, context[at + 1 :]) in complete
                ),
                context,
            )
            if shorter not in folded:
                folded.append(shorter)
        contexts = folded
