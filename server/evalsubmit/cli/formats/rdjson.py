"""``--output-format rdjson``: reviewdog's Diagnostic Format (RDFormat, as JSON), as ruff's
``rdjson``: one object with ``source``, ``severity`` and ``diagnostics``, each diagnostic with
its ``code`` (``value`` and the rule's documentation ``url``), ``location`` (path and 1-based
``range``), ``message``, ``severity`` and, when it has a fix, ``suggestions`` (the fix's
edits). RDFormat has no place for a path that was not checked: those are warned about on
stderr."""

from __future__ import annotations

import json
from typing import Any

from evalsubmit.cli.formats import Report, in_file
from evalsubmit.core.findings import Span

_SEVERITY = {"error": "ERROR", "warning": "WARNING", "information": "INFO"}
SOURCE = {"name": "evalsubmit", "url": "https://github.com/evalsubmit/evalsubmit"}


def _range(span: Span) -> dict[str, Any]:
    return {
        "start": {"line": span.line, "column": span.col + 1},
        "end": {"line": span.end_line, "column": span.end_col + 1},
    }


def render(report: Report) -> str:
    from evalsubmit.analysis.rules import RULES  # the rules' docs (loads the analysis)

    diagnostics = []
    for path, f in report.findings:
        rule = RULES.get(f.code)
        code = {"value": f.code, **({"url": rule.url} if rule is not None else {})}
        span, message = in_file(f)
        diagnostic: dict[str, Any] = {
            "code": code,
            "location": {"path": str(path), "range": _range(span)},
            "message": message,
            # a field ruff leaves out: reviewdog's -fail-level reads it per diagnostic
            "severity": _SEVERITY.get(str(f.severity), "ERROR"),
        }
        if f.fixes:
            diagnostic["suggestions"] = [
                {"range": _range(edit.span), "text": edit.new_text} for edit in f.fixes[0].edits
            ]
        diagnostics.append(diagnostic)
    document = {"source": SOURCE, "severity": "WARNING", "diagnostics": diagnostics}
    return json.dumps(document, indent=2) + "\n"
