"""What the caller chooses about an analysis: which rules, and how large a file may be."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class AnalysisOptions:
    select: frozenset[str] = frozenset()
    """Codes (or prefixes such as ``ES1``) to report; empty means all."""
    ignore: frozenset[str] = frozenset()
    max_chars: int = 2_000_000
    """Longer sources (in characters) are skipped with a reason instead of analysed."""

    def enabled(self, code: str) -> bool:
        if self.select and not any(code.startswith(s) for s in self.select):
            return False
        return not any(code.startswith(i) for i in self.ignore)
