"""``--statistics``: how many findings of each rule, most frequent first (like ``ruff check
--statistics``)::

    3	ES102	[*] row-option-on-taskset
    1	ES103	[ ] no-shape

``[*]`` marks a rule whose findings here have a fix ``--fix`` applies (with ``--unsafe-fixes``:
any fix). With ``--output-format json`` it is a JSON list of ``{"code", "name", "title",
"count", "fixable"}``; the paths not checked then go to stderr (a list holds no summary)."""

from __future__ import annotations

import json
from collections import Counter

from evalsubmit.cli.formats import Report, fix_summary
from evalsubmit.core.records import record


@record
class Statistic:
    code: str
    name: str
    title: str
    count: int
    fixable: bool


def statistics(report: Report) -> list[Statistic]:
    from evalsubmit.analysis.rules import RULES  # titles only; imported when asked for

    counts: Counter[str] = Counter(f.code for _, f in report.findings)
    fixable = {f.code for _, f in report.findings if f.applicable_fix(report.unsafe_fixes)}
    kinds = {f.code: f.kind for _, f in report.findings}
    rows = [
        Statistic(
            code,
            kinds[code],
            RULES[code].title if code in RULES else kinds[code],
            count,
            code in fixable,
        )
        for code, count in counts.items()
    ]
    return sorted(rows, key=lambda row: (-row.count, row.code))


def as_json(report: Report) -> str:
    rows = [
        {"code": r.code, "name": r.name, "title": r.title, "count": r.count, "fixable": r.fixable}
        for r in statistics(report)
    ]
    return json.dumps(rows, indent=2) + "\n"


def as_table(report: Report) -> str:
    from evalsubmit.cli.output import text_tail

    rows = statistics(report)
    count_width = max((len(str(r.count)) for r in rows), default=1)
    code_width = max((len(r.code) for r in rows), default=1)
    any_fixable = any(r.fixable for r in rows)
    lines = []
    for row in rows:
        mark = ("[*] " if row.fixable else "[ ] ") if any_fixable else ""
        lines.append(f"{row.count:>{count_width}}\t{row.code:<{code_width}}\t{mark}{row.name}")
    lines += text_tail(
        list(report.findings),
        report.files_checked,
        list(report.notes),
        list(report.skipped),
        list(report.effects),
        extra=report.extra,
    )
    lines += fix_summary(report)
    return "".join(f"{line}\n" for line in lines)
