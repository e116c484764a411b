"""``--output-format gitlab``: a GitLab Code Quality report (a JSON list of Code Climate
issues) for ``artifacts:reports:codequality``.

Each finding: ``description`` (``ES102: message``), ``check_name`` (the code), ``fingerprint``,
``severity``, ``location.path`` (relative to ``$CI_PROJECT_DIR``, else the current folder) and
``location.lines.begin``/``end``; also ``type``, ``categories`` and ``engine_name``.

* Severity: an error is ``critical`` (the SDK refuses the submission: it fails at run time), a
  warning ``major`` (ES110, a secret in the code), information ``info``; ``blocker`` and
  ``minor`` are not used.
* Fingerprint: the SHA-256 of the path, the code, the message with its line numbers masked and
  the whitespace-normalised source text of the span's lines, so the same problem keeps its
  fingerprint when lines are added above it (GitLab then shows it as unchanged, not as fixed
  and new). Identical findings get an occurrence number.
* A path that was not checked becomes an ``info`` issue, ``check_name`` ``evalsubmit/skipped``,
  on line 1 of that path: the report is the artifact CI keeps, and a skipped file must show
  there, not only in a log.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from evalsubmit.cli.formats import Report, relative
from evalsubmit.core.findings import Finding

SEVERITY = {"error": "critical", "warning": "major", "information": "info"}
CATEGORY = {"literal-secret": "Security"}
"""Code Climate categories: a secret is a security issue, the rest are bugs waiting to run."""
_LINE_NUMBERS = re.compile(r"(\bline |\.py:)\d+")
_SPACE = re.compile(r"\s+")


def as_gitlab(report: Report) -> str:
    base = Path(os.environ.get("CI_PROJECT_DIR") or Path.cwd())
    issues: list[dict[str, Any]] = []
    seen: Counter[str] = Counter()
    for path, f in report.findings:
        where = relative(path, base)
        if f.cell is None:
            source = report.sources.get(path) or ()
        else:
            source = report.cell_sources.get(path, {}).get(f.cell) or ()
        key = _identity(where, f, source)
        # in a notebook, no line of the file is the cell's: the place is in the description
        place = "" if f.cell is None else f"{f.place}: "
        lines = (f.span.line, f.span.end_line) if f.cell is None else (1, 1)
        seen[key] += 1
        issues.append(
            {
                "type": "issue",
                "engine_name": "evalsubmit",
                "check_name": f.code,
                "description": f"{place}{f.code}: {f.message}",
                "categories": [CATEGORY.get(f.kind, "Bug Risk")],
                "severity": SEVERITY.get(str(f.severity), "major"),
                "fingerprint": _digest(key, seen[key]),
                "location": {
                    "path": where,
                    "lines": {"begin": lines[0], "end": lines[1]},
                },
            }
        )
    for path, reason in report.skipped:
        where = relative(path, base)
        key = f"{where}\0evalsubmit/skipped\0{reason}"
        seen[key] += 1
        issues.append(
            {
                "type": "issue",
                "engine_name": "evalsubmit",
                "check_name": "evalsubmit/skipped",
                "description": f"skipped, not checked: {reason}",
                "categories": ["Bug Risk"],
                "severity": "info",
                "fingerprint": _digest(key, seen[key]),
                "location": {"path": where, "lines": {"begin": 1, "end": 1}},
            }
        )
    return json.dumps(issues, indent=2) + "\n"


def _identity(path: str, finding: Finding, source: Sequence[str]) -> str:
    """What makes a finding the same one across commits: never its line number."""
    span = finding.span
    text = " ".join(source[span.line - 1 : span.end_line]) if source else ""
    message = _LINE_NUMBERS.sub(r"\1#", finding.message)
    return "\0".join((path, finding.code, message, _SPACE.sub(" ", text).strip()))


def _digest(key: str, occurrence: int) -> str:
    material = key if occurrence == 1 else f"{key}\0{occurrence}"
    return hashlib.sha256(material.encode("utf-8", "surrogateescape")).hexdigest()
