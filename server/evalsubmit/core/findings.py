"""The one result type that crosses every boundary: CLI, language server, submission.

Indexing convention, stated once: ``line`` is 1-based; ``col`` is 0-based and counts Unicode
code points of the line (not UTF-8 bytes as :mod:`ast` does, not UTF-16 units as LSP does).
Converters at the edges (``cli``, ``lsp.convert``) translate from here.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final

from evalsubmit.core.records import Record


class Severity(StrEnum):
    ERROR = "error"
    WARNING = "warning"
    INFORMATION = "information"


class Span(Record):
    """A range of source: 1-based lines, 0-based code-point columns. Ordered by its fields in
    turn (a plain class for the start-up, see ``core.records``; a span is made, compared and
    hashed for every node evaluated, so its methods are written out)."""

    __slots__ = ("col", "end_col", "end_line", "line")
    line: Final[int]
    col: Final[int]
    end_line: Final[int]
    end_col: Final[int]

    def __init__(self, line: int, col: int, end_line: int, end_col: int) -> None:
        self.line = line
        self.col = col
        self.end_line = end_line
        self.end_col = end_col

    def __eq__(self, other: object) -> bool:
        if type(other) is Span:
            return (self.line, self.col, self.end_line, self.end_col) == (
                other.line,
                other.col,
                other.end_line,
                other.end_col,
            )
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.line, self.col, self.end_line, self.end_col))

    def __lt__(self, other: Span) -> bool:
        if type(other) is Span:
            return self._order() < other._order()
        return NotImplemented

    def __le__(self, other: Span) -> bool:
        if type(other) is Span:
            return self._order() <= other._order()
        return NotImplemented

    def __gt__(self, other: Span) -> bool:
        if type(other) is Span:
            return self._order() > other._order()
        return NotImplemented

    def __ge__(self, other: Span) -> bool:
        if type(other) is Span:
            return self._order() >= other._order()
        return NotImplemented

    def _order(self) -> tuple[int, int, int, int]:
        return (self.line, self.col, self.end_line, self.end_col)

    def contains(self, line: int, col: int) -> bool:
        """Whether the position (1-based line, 0-based col) lies inside, ends inclusive."""
        if (line, col) < (self.line, self.col):
            return False
        return (line, col) <= (self.end_line, self.end_col)


class Edit(Record):
    """Replace the text of ``span`` by ``new_text``."""

    __slots__ = ("new_text", "span")
    span: Final[Span]
    new_text: Final[str]

    def __init__(self, span: Span, new_text: str) -> None:
        self.span = span
        self.new_text = new_text


class Applicability(StrEnum):
    """Whether fix-all (the editor's and ``evalsubmit check --fix``) may apply a fix unasked.

    ``SAFE``: the fixed code does what the finding says the code was meant to do, and nothing
    else of the user's changes. ``UNSAFE``: the fix picks one of several readings of the code
    (dropping arguments that the other reading keeps) or writes a placeholder the user must
    fill in; it is offered as a quick fix and applied by ``--fix --unsafe-fixes`` only.
    """

    SAFE = "safe"
    UNSAFE = "unsafe"


class Placeholder(Record):
    """Text a fix writes for a value that only the user knows (ES105: the taskset to run).

    A fix must never introduce a finding, and a placeholder written into the code is one (a
    malformed taskset reference). So a fix with a placeholder is never applied as it is: the
    analysis fills it in from the configuration (:meth:`Fix.filled`) or drops the fix, and
    only an editor that can let the user type the value (an LSP snippet) is offered it."""

    __slots__ = ("setting", "text")
    text: Final[str]
    """As written in the edits' new text: ``<workspace>/<taskset>``."""
    setting: Final[str]
    """The configuration key whose value fills it in: ``default-taskset``."""

    def __init__(self, text: str, setting: str) -> None:
        self.text = text
        self.setting = setting


class Fix(Record):
    """The edits that fix a finding, under a title the editor shows."""

    __slots__ = ("applicability", "edits", "placeholder", "title")
    title: Final[str]
    edits: Final[tuple[Edit, ...]]
    applicability: Final[Applicability]
    placeholder: Final[Placeholder | None]
    """Set while the edits hold a value the user must give (never applied then)."""

    def __init__(
        self,
        title: str,
        edits: tuple[Edit, ...],
        applicability: Applicability = Applicability.SAFE,
        placeholder: Placeholder | None = None,
    ) -> None:
        self.title = title
        self.edits = edits
        self.applicability = applicability
        self.placeholder = placeholder

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


class Label(Record):
    """How a message names one walk. A call site's line is held as data, never baked into
    text: a result cached for a group of statements stays right when lines before it shift
    (:meth:`shifted`), and the text is made when a report is assembled (:meth:`__str__`)."""

    __slots__ = ("kind", "line", "name")
    kind: Final[LabelKind]
    name: Final[str]
    line: Final[int]
    """The call site's line (1-based; 0 for a ``TEXT`` label)."""

    def __init__(self, kind: LabelKind, name: str, line: int = 0) -> None:
        self.kind = kind
        self.name = name
        self.line = line

    def __eq__(self, other: object) -> bool:
        if type(other) is Label:
            return (self.kind, self.name, self.line) == (other.kind, other.name, other.line)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.kind, self.name, self.line))

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


class Site(Record):
    """The code whose walks belong together (a loop, a call, a parametrized test): what kind,
    and where its node starts (data, so that it moves with the code like a label)."""

    __slots__ = ("col", "kind", "line")
    kind: Final[str]
    """``loop``, ``call``, ``new`` (``__init__`` at a construction), ``post``
    (``__post_init__`` at one), ``parametrize``."""
    line: Final[int]
    col: Final[int]

    def __init__(self, kind: str, line: int, col: int) -> None:
        self.kind = kind
        self.line = line
        self.col = col

    def __eq__(self, other: object) -> bool:
        if type(other) is Site:
            return (self.kind, self.line, self.col) == (other.kind, other.line, other.col)
        return NotImplemented

    def __hash__(self) -> int:
        return hash((self.kind, self.line, self.col))

    def shifted(self, lines: int) -> Site:
        return Site(self.kind, self.line + lines, self.col) if lines else self


class Occasion(Record):
    """One of several occasions on which the same code runs, each walked on its own: the
    ``index``-th of ``total`` in ``group`` (the elements of one loop), or one of an open-ended
    set (``total`` 0: call sites)."""

    __slots__ = ("group", "index", "label", "lines", "total")
    group: Final[Site]
    index: Final[int]
    total: Final[int]
    label: Final[Label]
    """How a message names it: ``for the 2nd runner of RUNNERS``."""
    lines: Final[tuple[int, int] | None]
    """The lines of the call site (for a call): a finding there needs no label."""

    def __init__(
        self,
        group: Site,
        index: int,
        total: int,
        label: Label,
        lines: tuple[int, int] | None = None,
    ) -> None:
        self.group = group
        self.index = index
        self.total = total
        self.label = label
        self.lines = lines

    def __eq__(self, other: object) -> bool:
        if type(other) is Occasion:
            return self._key() == other._key()
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._key())

    def _key(self) -> tuple[Site, int, int, Label, tuple[int, int] | None]:
        return (self.group, self.index, self.total, self.label, self.lines)

    def shifted(self, lines: int) -> Occasion:
        """This walk for its code moved down by ``lines`` (negative: up)."""
        if not lines:
            return self
        moved = None if self.lines is None else (self.lines[0] + lines, self.lines[1] + lines)
        label = self.label.shifted(lines)
        return Occasion(self.group.shifted(lines), self.index, self.total, label, moved)


class Finding(Record):
    """One mistake found: a rule's code and message, where, and how to fix it."""

    __slots__ = ("cell", "code", "context", "fixes", "kind", "message", "severity", "span")
    code: Final[str]
    kind: Final[str]
    severity: Final[Severity]
    message: Final[str]
    span: Final[Span]
    fixes: Final[tuple[Fix, ...]]
    context: Final[tuple[Occasion, ...]]
    """When the mistake holds only for some of the ways the code runs (a loop element, a call
    site, a test parameter): those ways, outermost first. Reports merge them into the message."""
    cell: Final[int | None]
    """In a notebook: the index of the cell among all of its cells (0-based; shown 1-based, as
    ruff and editors number cells), and :attr:`span` is relative to that cell."""

    def __init__(
        self,
        code: str,
        kind: str,
        severity: Severity,
        message: str,
        span: Span,
        fixes: tuple[Fix, ...] = (),
        context: tuple[Occasion, ...] = (),
        cell: int | None = None,
    ) -> None:
        self.code = code
        self.kind = kind
        self.severity = severity
        self.message = message
        self.span = span
        self.fixes = fixes
        self.context = context
        self.cell = cell

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
