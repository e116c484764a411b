"""The facts every layer shares: spans, findings and fixes, text edits, line splitting
(:mod:`evalsubmit.core.lines`), the suppression comment grammar, and reading source files from
disk the way Python does (:mod:`evalsubmit.core.sourcefile`). Standard library only; imports
nothing else of evalsubmit.

Its names are loaded on first use (PEP 562): importing a light part of it
(``evalsubmit.core.records``) does not load :mod:`.findings` and its classes, which a check
of a file that cannot reach the SDK never uses.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from evalsubmit.core.findings import Edit, Finding, Fix, Severity, Span

_FROM_FINDINGS = frozenset(("Edit", "Finding", "Fix", "Severity", "Span"))


def __getattr__(name: str) -> Any:
    if name not in _FROM_FINDINGS:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from evalsubmit.core import findings

    value = getattr(findings, name)
    globals()[name] = value
    return value


__all__ = ["Edit", "Finding", "Fix", "Severity", "Span"]
