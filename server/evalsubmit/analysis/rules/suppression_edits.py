"""What ES190 and ES191 share: a suppression comment where it stands, and the fix that takes
codes out of it (the whole comment when nothing is left in it)."""

from __future__ import annotations

from collections.abc import Sequence

from evalsubmit.core.findings import Edit, Fix, Span
from evalsubmit.core.records import record
from evalsubmit.core.suppression import WHOLE_LINE, Suppression, without_codes


@record
class Comment:
    """A suppression comment of the module, on its 1-based ``line`` (whose text is ``text``,
    without its line end)."""

    line: int
    text: str
    suppression: Suppression
    last: bool = False
    """No line follows (removing the line then removes no line end)."""

    @property
    def span(self) -> Span:
        return Span(self.line, self.suppression.start, self.line, self.suppression.end)


def removal_fix(comment: Comment, codes: Sequence[str], title: str) -> Fix:
    start, end, new_text = without_codes(comment.text, comment.suppression, codes)
    if end == WHOLE_LINE and not comment.last:
        span = Span(comment.line, 0, comment.line + 1, 0)
    elif end == WHOLE_LINE:  # the last line: nothing follows it
        span = Span(comment.line, 0, comment.line, len(comment.text))
    else:
        span = Span(comment.line, start, comment.line, end)
    return Fix(title, (Edit(span, new_text),))
