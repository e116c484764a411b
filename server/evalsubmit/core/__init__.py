"""The facts every layer shares: spans, findings and fixes, text edits, line splitting
(:mod:`evalsubmit.core.lines`), the suppression comment grammar, and reading source files from
disk the way Python does (:mod:`evalsubmit.core.sourcefile`). Standard library only; imports
nothing else of evalsubmit."""

from evalsubmit.core.findings import Edit, Finding, Fix, Severity, Span

__all__ = ["Edit", "Finding", "Fix", "Severity", "Span"]
