"""What the caller chooses about an analysis: which rules, how large a file may be, which SDK."""

from __future__ import annotations

from evalsubmit.core.records import record

DEFAULT_MAX_CHARS = 2_000_000


@record
class AnalysisOptions:
    """What an analysis reports (rules selected) and how much it takes on."""

    select: frozenset[str] = frozenset()
    """Codes (or prefixes such as ``ES1``) to report; empty means all."""
    ignore: frozenset[str] = frozenset()
    max_chars: int = DEFAULT_MAX_CHARS
    """Longer sources (in characters) are skipped with a reason instead of analysed."""
    max_tokens: int = 250_000
    """Sources with more tokens are skipped with a reason too: characters alone do not bound
    the time and memory of an analysis (a syntax-tree node and its interpretation per
    token; a 1.9 MB list literal is 1.9 million tokens, a string literal of any size one)."""
    sdk_version: str | None = None
    """The ``nemo-platform`` version the user declares (``sdk-version`` in their configuration):
    ES111 compares it instead of the version installed in their environment."""

    default_taskset: str | None = None
    """The configuration's ``default-taskset`` (in the editor, ``evalsubmit.defaultTaskset``
    first): it fills in a fix that must name a taskset (ES105's ``tasks=``)."""
    placeholders: bool = False
    """Keep a fix whose placeholder no setting fills in (the editor offers it as a snippet the
    user completes); otherwise (``check``) such a fix is dropped: a fix never writes a value
    that is itself a finding."""

    summaries: bool = True
    """Runner previews and ``submit()`` summaries in the report (hover, code lenses,
    ``preview``, ``submit``); ``check`` prints findings only and turns them off."""

    def enabled(self, code: str) -> bool:
        if self.select and not any(code.startswith(s) for s in self.select):
            return False
        return not any(code.startswith(i) for i in self.ignore)
