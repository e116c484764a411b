"""What the caller chooses about an analysis: which rules, how large a file may be, which SDK."""

from __future__ import annotations

from typing import Final

from evalsubmit.core.records import Record

DEFAULT_MAX_CHARS = 2_000_000


class AnalysisOptions(Record):
    """What an analysis reports (rules selected) and how much it takes on."""

    __slots__ = (
        "default_taskset",
        "ignore",
        "max_chars",
        "max_tokens",
        "placeholders",
        "sdk_version",
        "select",
        "summaries",
    )
    select: Final[frozenset[str]]
    """Codes (or prefixes such as ``ES1``) to report; empty means all."""
    ignore: Final[frozenset[str]]
    max_chars: Final[int]
    """Longer sources (in characters) are skipped with a reason instead of analysed."""
    max_tokens: Final[int]
    """Sources with more tokens are skipped with a reason too: characters alone do not bound
    the time and memory of an analysis (a syntax-tree node and its interpretation per
    token; a 1.9 MB list literal is 1.9 million tokens, a string literal of any size one)."""
    sdk_version: Final[str | None]
    """The ``nemo-platform`` version the user declares (``sdk-version`` in their configuration):
    ES111 compares it instead of the version installed in their environment."""
    default_taskset: Final[str | None]
    """The configuration's ``default-taskset`` (in the editor, ``evalsubmit.defaultTaskset``
    first): it fills in a fix that must name a taskset (ES105's ``tasks=``)."""
    placeholders: Final[bool]
    """Keep a fix whose placeholder no setting fills in (the editor offers it as a snippet the
    user completes); otherwise (``check``) such a fix is dropped: a fix never writes a value
    that is itself a finding."""
    summaries: Final[bool]
    """Runner previews and ``submit()`` summaries in the report (hover, code lenses,
    ``preview``, ``submit``); ``check`` prints findings only and turns them off."""

    def __init__(
        self,
        select: frozenset[str] = frozenset(),
        ignore: frozenset[str] = frozenset(),
        max_chars: int = DEFAULT_MAX_CHARS,
        max_tokens: int = 250_000,
        sdk_version: str | None = None,
        default_taskset: str | None = None,
        placeholders: bool = False,
        summaries: bool = True,
    ) -> None:
        self.select = select
        self.ignore = ignore
        self.max_chars = max_chars
        self.max_tokens = max_tokens
        self.sdk_version = sdk_version
        self.default_taskset = default_taskset
        self.placeholders = placeholders
        self.summaries = summaries

    def enabled(self, code: str) -> bool:
        if self.select and not any(code.startswith(s) for s in self.select):
            return False
        return not any(code.startswith(i) for i in self.ignore)
