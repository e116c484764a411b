"""The facts every layer shares: spans, findings and fixes, text edits, line splitting, and the
suppression comment grammar. Standard library only; imports nothing else of evalsubmit."""

from evalsubmit.core.findings import Edit, Finding, Fix, Severity, Span

__all__ = ["Edit", "Finding", "Fix", "Severity", "Span"]
