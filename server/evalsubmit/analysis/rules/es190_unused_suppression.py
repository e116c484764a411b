"""ES190 unused-suppression: a suppression comment, or one of its codes, silences nothing."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import RULES, Rule, register
from evalsubmit.core.findings import Applicability, Finding, Severity, Span
from evalsubmit.core.suppression import Kind

if TYPE_CHECKING:
    from evalsubmit.analysis.rules.suppression_edits import Comment

RULE = Rule(
    code="ES190",
    kind="unused-suppression",
    title="a suppression silences nothing",
    severity=Severity.WARNING,
    fix=Applicability.SAFE,
    docs="""A `# evalsubmit: ignore[...]` or `# evalsubmit: ignore-file[...]` comment, or an `ES`
code in a `# noqa:` list, that silences no finding: the mistake it was written for was fixed
or moved, and the comment would now hide the next one on that line (like ruff's `unused-noqa`,
RUF100). Decided as ruff decides:

* a code whose rule is on but found nothing there is unused;
* a code whose rule is turned off (`ignore`, `select`, `per-file-ignores`, `--ignore`) is
  unused too, said as `(non-enabled: ES107)`: the rule is not run, so the comment does nothing;
* a bare `# noqa`, and the codes of other tools in a `# noqa:` list, are never judged: other
  tools read them too;
* nothing is judged in a file that is not wholly analysed (a syntax error, ES100; an internal
  error), since the finding may be in what was left out.

A finding that another module places here (ES107: a config written in this file and submitted
from another) arrives only with the analysis of that module: a suppression that could silence
one (`ES107`, or a bare `# evalsubmit: ignore`) is judged only once every module that may import
this one has been analysed (in the editor, when the importers' results are in; in `evalsubmit
check`, when every such module of the project is among those checked). Until then it is not
called unused.

```python
job = client.evaluator.submit(tasks=TASKS, target=runner)  # evalsubmit: ignore[ES104]
#                                           ES190: `ES104` silences nothing on this line
```

**Fix safety:** safe. The unused code is taken out of the comment, the whole comment when nothing
else is left in it (other tools' codes stay). `# noqa: ES190` on the line, or
`# evalsubmit: ignore-file[ES190]`, keeps a suppression on purpose; a bare
`# evalsubmit: ignore-file` turns every rule off in its file, this one included (as ruff's
`# ruff: noqa` does RUF100). In `evalsubmit check`, a file that cannot reach the SDK is judged
too (its suppressions can only be unused, but for an ES107 placed from another module), and
`--fix` fixes it.""",
)

NEVER_JUDGED = frozenset({"ES190", "ES191"})
"""Codes that silence this rule's own findings: never called unused themselves."""
LATE = "ES107"
"""The one rule whose findings other modules place in this one (they arrive later)."""


def check(
    comments: list[Comment],
    silenced: Iterable[Finding],
    enabled: set[str],
    *,
    complete: bool,
) -> list[Finding]:
    """The unused suppressions among ``comments``; ``silenced`` are the findings suppression
    comments silenced, ``enabled`` the codes of the rules that ran, ``complete`` whether every
    finding other modules place here is among them."""
    if not comments:
        return []
    # what a comment's fix removes is loaded when a module holds a suppression comment of ours
    from evalsubmit.analysis.rules.suppression_edits import removal_fix

    silenced = list(silenced)
    on_line: dict[int, set[str]] = {}
    for f in silenced:
        on_line.setdefault(f.span.line, set()).add(f.code)
    anywhere = {f.code for f in silenced}
    found = []
    for comment in comments:
        s = comment.suppression
        used = anywhere if s.kind is Kind.FILE else on_line.get(comment.line, set())
        if s.codes is None:
            late = LATE in enabled and not complete
            if s.kind is not Kind.NOQA and not used and not late:
                message = f"`# {s.kind}` silences nothing"
                title = "Remove the unused suppression"
                found.append(finding(RULE, comment.span, message, removal_fix(comment, [], title)))
            continue
        unused, disabled = [], []
        for code in dict.fromkeys(s.codes):
            if code in used or code in NEVER_JUDGED or code not in RULES:
                continue  # an unknown code is ES191's
            if code not in enabled:
                disabled.append(code)
            elif code != LATE or complete:
                unused.append(code)
        if unused or disabled:
            found.append(_unused(comment, unused, disabled))
    return found


def _unused(comment: Comment, unused: list[str], disabled: list[str]) -> Finding:
    parts = []
    if unused:
        parts.append(f"unused: {', '.join(f'`{c}`' for c in unused)}")
    if disabled:
        parts.append(f"non-enabled: {', '.join(f'`{c}`' for c in disabled)}")
    codes = unused + disabled
    message = f"Unused `{comment.suppression.kind}` suppression ({'; '.join(parts)})"
    spans = [c for c in comment.suppression.written if c.code in codes]
    first = spans[0] if len(spans) == 1 else None
    span = Span(comment.line, first.start, comment.line, first.end) if first else comment.span
    title = f"Remove unused {', '.join(f'`{c}`' for c in codes)}"
    from evalsubmit.analysis.rules.suppression_edits import removal_fix

    return finding(RULE, span, message, removal_fix(comment, codes, title))


register(RULE)
