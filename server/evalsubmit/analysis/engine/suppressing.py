"""Suppression comments at work: which findings they silence, and which of them silence nothing
or name no rule (ES190, ES191), judged once every finding that can land in the module is known.

The same functions serve the editor (forward, then with what importers report: lsp/jobs.py) and
``evalsubmit check`` (forward per file, then with the findings other checked files route here):
both say the same about the same text.
"""

from __future__ import annotations

import io
import tokenize
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from evalsubmit.analysis.engine.options import AnalysisOptions
from evalsubmit.analysis.rules import RULES
from evalsubmit.analysis.rules import es190_unused_suppression as es190
from evalsubmit.analysis.rules import es191_unknown_rule_code as es191
from evalsubmit.core.findings import Finding
from evalsubmit.core.lines import line_text
from evalsubmit.core.suppression import (
    Kind,
    Marked,
    Suppression,
    file_suppressions,
    lines_mentioning,
    silenced_by_file,
    suppressed,
    suppressions,
)

if TYPE_CHECKING:
    from evalsubmit.analysis.rules.suppression_edits import Comment

JUDGING = frozenset({es190.RULE.code, es191.RULE.code})
"""The codes about suppressions themselves (made by :func:`judged`, never by the rules' run)."""


def partition(
    findings: Iterable[Finding],
    lines: Sequence[str],
    options: AnalysisOptions,
    marked: Marked | None = None,
) -> tuple[list[Finding], list[Finding]]:
    """(kept, silenced): the findings of enabled rules that no suppression comment silences, and
    those one does (line or file level). Findings of rules turned off are in neither.
    ``marked``: the lines holding suppression markers, when the parse knew them."""
    kept: list[Finding] = []
    silenced: list[Finding] = []
    file_level: list[tuple[int, Suppression]] | None = None
    for f in findings:
        if not options.enabled(f.code):
            continue
        if suppressed(f.code, line_text(lines, f.span.line)):
            silenced.append(f)
            continue
        if file_level is None:  # looked for once, and only in a module with a finding
            file_level = file_suppressions(lines, marked)
        (silenced if silenced_by_file(f.code, file_level) else kept).append(f)
    return kept, silenced


def judged(
    findings: Sequence[Finding],
    silenced: Iterable[Finding],
    lines: Sequence[str],
    options: AnalysisOptions,
    *,
    complete: bool,
    partial: bool = False,
    marked: Marked | None = None,
) -> list[Finding]:
    """``findings`` with the ES190/ES191 findings about the module's suppression comments made
    anew. ``complete``: every finding other modules place here is among ``findings`` and
    ``silenced`` (else a suppression that could silence one is not judged); ``partial``: part of
    the module was not analysed (nothing is called unused)."""
    kept = [f for f in findings if f.code not in JUDGING]
    want_unused, want_unknown = options.enabled(es190.RULE.code), options.enabled(es191.RULE.code)
    if not (want_unused or want_unknown):
        return kept
    comments = suppression_comments(lines, marked)
    if not comments:
        return kept
    silenced = list(silenced)
    partial = partial or any(f.code == "ES100" for f in (*kept, *silenced))
    new: list[Finding] = []
    if want_unknown:
        new += es191.check(comments)
    if want_unused and not partial:
        enabled = {code for code in RULES if options.enabled(code)}
        new += es190.check(comments, silenced, enabled, complete=complete)
    file_level = [(c.line, c.suppression) for c in comments if c.suppression.kind is Kind.FILE]
    new = [f for f in new if not _kept_on_purpose(f, lines, file_level)]
    if not new:
        return kept
    return sorted([*kept, *new], key=lambda f: (f.span, f.code))


def suppression_comments(lines: Sequence[str], marked: Marked | None = None) -> list[Comment]:
    """Every suppression comment of the module that is a real comment (``"# noqa"`` in a string
    is text), line and file level, in order. Empty when the module does not tokenize: then no
    comment is judged."""
    ours: list[tuple[int, str, Suppression]] = []
    for index in lines_mentioning(lines, ("evalsubmit", "noqa"), marked):
        text = lines[index].rstrip("\r\n")
        found_here = [*suppressions(text), *(s for _, s in file_suppressions([text]))]
        ours += [(index, text, s) for s in found_here if _judgeable(s)]
    if not ours:  # a bare noqa, or only other tools' codes: never judged
        return []
    starts = _comment_starts(lines)
    if starts is None:
        return []
    # what a comment's fix removes is loaded when a module holds a suppression comment of ours
    from evalsubmit.analysis.rules.suppression_edits import Comment

    found: list[Comment] = []
    for index, text, s in ours:
        at = starts.get(index + 1)
        if at is not None and s.start >= at:
            last = index == len(lines) - 1 and text == lines[index]
            found.append(Comment(index + 1, text, s, last))
    return found


def _judgeable(s: Suppression) -> bool:
    """Ours to judge: an ``evalsubmit:`` comment, or a ``# noqa:`` naming one of our codes."""
    return s.kind is not Kind.NOQA or any(c.ours for c in s.written)


def _comment_starts(lines: Sequence[str]) -> dict[int, int] | None:
    """1-based line -> the column where its comment starts (None: the text does not tokenize).
    ``lines`` with or without their line ends."""
    # one "\n" per line break of ours (\r\n, \r or \n): the tokenizer's rows are our lines
    text = "\n".join(line.rstrip("\r\n") for line in lines) + "\n"
    starts: dict[int, int] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                starts[token.start[0]] = token.start[1]
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    return starts


def _kept_on_purpose(
    finding: Finding, lines: Sequence[str], file_level: list[tuple[int, Suppression]]
) -> bool:
    """An ES190/ES191 finding silenced by a suppression naming its code (``# noqa: ES190``) on
    its line, or by an ``ignore-file`` covering it. A bare ``# evalsubmit: ignore`` does not
    silence what is said about itself."""
    line = line_text(lines, finding.span.line).rstrip("\r\n")
    named = any(s.codes is not None and finding.code in s.codes for s in suppressions(line))
    return named or silenced_by_file(finding.code, file_level)
