"""Rule registry: every diagnostic evalsubmit can report, with its stable code and docs."""

from __future__ import annotations

from dataclasses import dataclass

from evalsubmit.core.findings import Severity

DOCS_BASE = "https://github.com/evalsubmit/evalsubmit/blob/main/docs/rules.md"


@dataclass(frozen=True, slots=True)
class Rule:
    code: str
    kind: str
    title: str
    severity: Severity
    docs: str
    """Markdown: what it catches, why the SDK refuses it, an example, the fix."""

    @property
    def url(self) -> str:
        return f"{DOCS_BASE}#{self.code.lower()}-{self.kind}"


RULES: dict[str, Rule] = {}


def register(rule: Rule) -> Rule:
    if rule.code in RULES:
        raise ValueError(f"rule code {rule.code} registered twice")
    RULES[rule.code] = rule
    return rule
