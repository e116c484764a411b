"""ES191 unknown-rule-code: a suppression comment names an evalsubmit code that no rule has."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalsubmit.analysis.rules.edits import finding
from evalsubmit.analysis.rules.registry import RULES, Rule, register
from evalsubmit.core.findings import Applicability, Finding, Severity, Span

if TYPE_CHECKING:
    from evalsubmit.analysis.rules.suppression_edits import Comment

RULE = Rule(
    code="ES191",
    kind="unknown-rule-code",
    title="a suppression names a code that is no evalsubmit rule",
    severity=Severity.WARNING,
    fix=Applicability.SAFE,
    docs="""A suppression comment (`# evalsubmit: ignore[...]`, `# evalsubmit: ignore-file[...]`,
or an `ES` code in a `# noqa:` list) names a code that no evalsubmit rule has: a typo
(`ES1O4` for `ES104`) or a rule that does not exist. It silences nothing, and the finding it was
meant for is still reported, or will be once it appears (like ruff's `invalid-rule-code`,
RUF102). In a `# noqa:` list, codes without the `ES` prefix (`E501`, `F401`, `RUF100`) belong
to other tools and are never reported.

```python
runner = make_runner()  # noqa: ES1O4
# ES191: `ES1O4` is not an evalsubmit rule code (did you mean `ES104`?)
```

**Fix safety:** safe. The code is taken out of the comment (the whole comment when nothing else is
left in it; other tools' codes stay). Then write the code you meant.""",
)


def check(comments: list[Comment]) -> list[Finding]:
    """One finding per unknown code of ours, at the code."""
    if not comments:
        return []
    # what a comment's fix removes is loaded when a module holds a suppression comment of ours
    from evalsubmit.analysis.rules.suppression_edits import removal_fix

    found = []
    for comment in comments:
        for code in comment.suppression.written:
            if not code.ours or code.code in RULES:
                continue
            span = Span(comment.line, code.start, comment.line, code.end)
            message = f"`{code.code}` is not an evalsubmit rule code{_meant(code.code)}"
            title = f"Remove the unknown code `{code.code}`"
            found.append(finding(RULE, span, message, removal_fix(comment, [code.code], title)))
    return found


def _meant(code: str) -> str:
    """`` (did you mean `ES104`?)``: the letter O for a zero, or one character off."""
    zeroed = code.replace("O", "0")
    if zeroed in RULES:
        return f" (did you mean `{zeroed}`?)"
    near = [r for r in RULES if len(r) == len(code) and sum(map(str.__ne__, r, code)) == 1]
    return f" (did you mean `{near[0]}`?)" if len(near) == 1 else ""


register(RULE)
