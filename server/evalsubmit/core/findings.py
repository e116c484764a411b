"""The one result type that crosses every boundary: CLI, language server, submission.

Indexing convention, stated once: ``line`` is 1-based; ``col`` is 0-based and counts Unicode
code points of the line (not UTF-8 bytes as :mod:`ast` does, not UTF-16 units as LSP does).
Converters at the edges (``cli``, ``lsp.convert``) translate from here.
"""

from __future__ import annotations

from dataclasses import field
from enum import StrEnum

from evalsubmit.core.records import record


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"


@record(order=True)
class Span:
    """A range of source: 1-based lines, 0-based code-point columns."""

    line: int
    col: int
    end_line: int
    end_col: int

    def contains(self, line: int, col: int) -> bool:
        """Whether the position (1-based line, 0-based col) lies inside, ends inclusive."""
        if (line, col) < (self.line, self.col):
            return False
        return (line, col) <= (self.end_line, self.end_col)


@record
class Edit:
    """Replace the text of ``span`` by ``new_text``."""

    span: Span
    new_text: str


class Applicability(StrEnum):
    """Whether fix-all (the editor's and ``evalsubmit check --fix``) may apply a fix unasked.

    ``SAFE``: the fixed code does what the finding says the code was meant to do, and nothing
    else of the user's changes. ``UNSAFE``: the fix picks one of several readings of the code
    (dropping arguments that the other reading keeps) or writes a placeholder the user must
    fill in; it is offered as a quick fix and applied by ``--fix --unsafe-fixes`` only.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"


@record
class Placeholder:
    """Text a fix writes for a value that only the user knows (ES105: the taskset to run).

    A fix must never introduce a finding, and a placeholder written into the code is one (a
    malformed taskset reference). So a fix with a placeholder is never applied as it is: the
    analysis fills it in from the configuration (:meth:`Fix.filled`) or drops the fix, and
    only an editor that can let the user type the value (an LSP snippet) is offered it."""

    text: str
    """As written in the edits' new text: ``<workspace>/<taskset>``."""
    setting: str
    """The configuration key whose value fills it in: ``default-taskset``."""


@record
class Fix:
    """The edits that fix a finding, under a title the editor shows."""

    title: str
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE
    placeholder: Placeholder | None = None
    """Set while the edits hold a value the user must give (never applied then)."""

    def filled(self, value: str, title: str) -> Fix:
        """This fix with its placeholder replaced by ``value``, under ``title``."""
        if self.placeholder is None:
            return self
        text = self.placeholder.text
        edits = tuple(Edit(e.span, e.new_text.replace(text, value)) for e in self.edits)
        return Fix(title, edits, self.applicability)


class LabelKind(StrEnum):
    TEXT = "text"
    """No position: the whole text is ``name`` (``for the 2nd runner of RUNNERS``)."""
    CALL = "call"
    """``when {name}() is called at line {line}``."""
    CONSTRUCT = "construct"
    """``when {name}() is constructed at line {line}``."""


@record
class Label:
    """How a message names one walk. A call site's line is held as data, never baked into
    text: a result cached for a group of statements stays right when lines before it shift
    (:meth:`shifted`), and the text is made when a report is assembled (:meth:`__str__`)."""

    kind: LabelKind
    name: str
    line: int = 0
    """The call site's line (1-based; 0 for a ``TEXT`` label)."""

    @staticmethod
    def text(text: str) -> Label:
        return Label(LabelKind.TEXT, text)

    def __str__(self) -> str:
        if self.kind is LabelKind.CALL:
            return f"when {self.name}() is called at line {self.line}"
        if self.kind is LabelKind.CONSTRUCT:
            return f"when {self.name}() is constructed at line {self.line}"
        return self.name

    def shifted(self, lines: int) -> Label:
        """This label for its code moved down by ``lines`` (negative: up)."""
        if self.kind is LabelKind.TEXT or not lines:
            return self
        return Label(self.kind, self.name, self.line + lines)


Where = tuple[Label, ...]
"""The walks (outermost first) that make a preview: shown joined by ``, ``."""


def where_text(where: Where) -> str:
    return ", ".join(map(str, where))


@record
class Site:
    """The code whose walks belong together (a loop, a call, a parametrized test): what kind,
    and where its node starts (data, so that it moves with the code like a label)."""

    kind: str
    """``loop``, ``call``, ``new`` (``__init__`` at a construction), ``post``
    (``__post_init__`` at one), ``parametrize``."""
    line: int
    col: int

    def shifted(self, lines: int) -> Site:
        return Site(self.kind, self.line + lines, self.col) if lines else self


@record
class Occasion:
    """One of several occasions on which the same code runs, each walked on its own: the
    ``index``-th of ``total`` in ``group`` (the elements of one loop), or one of an open-ended
    set (``total`` 0: call sites)."""

    group: Site
    index: int
    total: int
    label: Label
    """How a message names it: ``for the 2nd runner of RUNNERS``."""
    lines: tuple[int, int] | None = None
    """The lines of the call site (for a call): a finding there needs no label."""

    def shifted(self, lines: int) -> Occasion:
        """This walk for its code moved down by ``lines`` (negative: up)."""
        if not lines:
            return self
        moved = None if self.lines is None else (self.lines[0] + lines, self.lines[1] + lines)
        label = self.label.shifted(lines)
        return Occasion(self.group.shifted(lines), self.index, self.total, label, moved)


@record
class Finding:
    """One mistake found: a rule's code and message, where, and how to fix it."""

    code: str
    kind: str
    severity: Severity
    message: str
    span: Span
    fixes: tuple[Fix, ...] = field(default=())
    context: tuple[Occasion, ...] = field(default=())
    """When the mistake holds only for some of the ways the code runs (a loop element, a call
    site, a test parameter): those ways, outermost first. Reports merge them into the message."""
    cell: int | None = None
    """In a notebook: the index of the cell among all of its cells (0-based; shown 1-based, as
    ruff and editors number cells), and :attr:`span` is relative to that cell."""

    @property
    def place(self) -> str:
        """``line:column`` (1-based) as text reports show it, ``cell N:line:column`` in a
        notebook (ruff's notation; also what ``preview``/``submit`` accept)."""
        where = f"{self.span.line}:{self.span.col + 1}"
        return where if self.cell is None else f"cell {self.cell + 1}:{where}"

    def applicable_fix(self, unsafe: bool = False) -> Fix | None:
        """The fix that fix-all (editor and ``--fix``) applies: the first safe one, or the
        first of any kind with ``unsafe`` (``--unsafe-fixes``); never one with a placeholder
        (the editor offers it alone, as a snippet the user fills in)."""
        for fix in self.fixes:
            if fix.placeholder is not None:
                continue
            if unsafe or fix.applicability is Applicability.SAFE:
                return fix
        return None
