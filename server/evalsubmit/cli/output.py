"""Renderings of findings for ``evalsubmit check``: text, the JSON contract, SARIF 2.1.0.

Findings carry 1-based lines and 0-based code-point columns; every format here prints 1-based
columns (``column = span.col + 1``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evalsubmit import __version__
from evalsubmit.analysis import Finding
from evalsubmit.analysis.rules import RULES

JSON_VERSION = 1
SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_SARIF_LEVEL = {"error": "error", "warning": "warning", "information": "note"}

Located = tuple[Path, Finding]


def render(
    fmt: str, findings: list[Located], files_checked: int, notes: list[str] | None = None
) -> str:
    """``notes`` (about the environment, e.g. another SDK installed) end the text summary."""
    if fmt == "json":
        return json.dumps(as_json(findings, files_checked), indent=2) + "\n"
    if fmt == "sarif":
        return json.dumps(as_sarif(findings), indent=2) + "\n"
    return as_text(findings, files_checked, notes or [])


def as_text(findings: list[Located], files_checked: int, notes: list[str] | None = None) -> str:
    lines = [f"{path}:{f.span.line}:{f.span.col + 1}: {f.code} {f.message}" for path, f in findings]
    noun = "file" if files_checked == 1 else "files"
    if findings:
        count, with_problems = len(findings), len({path for path, _ in findings})
        where = f"{with_problems} file{'s' if with_problems != 1 else ''}"
        lines.append(f"Found {count} problem{'s' if count != 1 else ''} in {where}.")
    else:
        lines.append(f"All checks passed ({files_checked} {noun}).")
    lines += [f"Note: {note}." for note in notes or []]
    return "\n".join(lines) + "\n"


def as_json(findings: list[Located], files_checked: int) -> dict[str, Any]:
    return {
        "version": JSON_VERSION,
        "files_checked": files_checked,
        "findings": [
            {
                "path": str(path),
                "line": f.span.line,
                "column": f.span.col + 1,
                "end_line": f.span.end_line,
                "end_column": f.span.end_col + 1,
                "code": f.code,
                "kind": f.kind,
                "severity": str(f.severity),
                "message": f.message,
            }
            for path, f in findings
        ],
    }


def as_sarif(findings: list[Located]) -> dict[str, Any]:
    rules = [
        {
            "id": rule.code,
            "name": rule.kind,
            "shortDescription": {"text": rule.title},
            "fullDescription": {"text": rule.docs.split("\n\n")[0]},
            "help": {"text": rule.docs, "markdown": rule.docs},
            "helpUri": rule.url,
            "defaultConfiguration": {"level": _SARIF_LEVEL[str(rule.severity)]},
        }
        for rule in RULES.values()
    ]
    index = {rule.code: i for i, rule in enumerate(RULES.values())}
    results = [
        {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": _SARIF_LEVEL[str(f.severity)],
            "message": {"text": f.message},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": {"uri": path.as_posix()},
                        "region": {
                            "startLine": f.span.line,
                            "startColumn": f.span.col + 1,
                            "endLine": f.span.end_line,
                            "endColumn": f.span.end_col + 1,
                        },
                    }
                }
            ],
        }
        for path, f in findings
    ]
    driver = {
        "name": "evalsubmit",
        "version": __version__,
        "informationUri": RULES_URI,
        "rules": rules,
    }
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{"tool": {"driver": driver}, "results": results}],
    }


RULES_URI = "https://github.com/evalsubmit/evalsubmit#rules"
