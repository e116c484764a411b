"""Idiom tests: realistic snippets with ``# expect: ES10x`` on the lines the findings anchor
on (the conventions of the SDK reference §8); nothing else may be reported. A snippet is
analysed after the rule tests' preamble (``rule_support.HEADER``: imports, a client, runners)."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

from evalsubmit.analysis import Finding, Project, analyze_source
from unit.rules.rule_support import HEADER, HEADER_LINES

MARKER = re.compile(r"#\s*expect:\s*(ES\d{3}(?:\s*,\s*ES\d{3})*)")


def expected(snippet: str) -> list[tuple[int, str]]:
    found = []
    for number, line in enumerate(textwrap.dedent(snippet).lstrip("\n").splitlines(), start=1):
        match = MARKER.search(line)
        if match:
            found += [(number, code.strip()) for code in match.group(1).split(",")]
    return sorted(found)


def findings(
    snippet: str, *, path: Path | None = None, project: Project | None = None
) -> list[Finding]:
    source = HEADER + textwrap.dedent(snippet).lstrip("\n")
    report = analyze_source(source, path=path or Path("snippet.py"), project=project or Project())
    assert report.skipped is None, report.skipped
    return list(report.findings)


def reported(snippet: str, **kwargs: object) -> list[tuple[int, str]]:
    return sorted((f.span.line - HEADER_LINES, f.code) for f in findings(snippet, **kwargs))  # type: ignore[arg-type]


def check(snippet: str) -> None:
    """The snippet's findings are exactly its markers (line, code)."""
    assert reported(snippet) == expected(snippet), "\n".join(
        f"{f.span.line - HEADER_LINES}: {f.code} {f.message}" for f in findings(snippet)
    )
