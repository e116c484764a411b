"""Whether a Python text may store a module attribute, found without parsing it (for
:mod:`.module_stores`). Every doubt is answered "it may": a store not seen leaves a value
trusted that may not hold, while a store seen that is not one only silences what reads it.

Seen, for an attribute ``NAME`` (any receiver but ``self``/``cls``, spaces around the dot
allowed):

* ``x.NAME = ...``, any augmented operator, with an annotation (``x.NAME: int = ...``), or a
  later target of a chained assignment;
* an element of a target list: ``x.NAME, y = ...``, ``(a, x.NAME) = ...``, ``[*x.NAME] = ...``,
  over several lines too (``=`` at the statement's bracket depth, after the element);
* a ``for`` target (``for x.NAME in ...``, comprehensions too), ``with ... as x.NAME``,
  ``del x.NAME``;
* ``setattr(x, "NAME", ...)`` (``monkeypatch.setattr`` too, and its ``"pkg.mod.NAME"``
  form), ``x.__setattr__("NAME", ...)``, ``object.__setattr__(x, "NAME", ...)``; and, for
  every name at once, those with a name computed, ``vars(x)[...] = ...``,
  ``x.__dict__[...] = ...`` and their ``update``/``setdefault``. A receiver ``self``/``cls``
  (``super()`` for ``__setattr__``) is the object's own, never a module;
* what the attribute holds changed in place: an item or attribute of it stored or deleted
  (``x.NAME["k"] = ...``, ``del x.NAME["k"]``, ``x.NAME.k += ...``), any method called on it or
  on an item or attribute of it (``x.NAME.update(...)``, ``x.NAME["k"].append(...)``: any
  method, since a read-only one cannot be told from its name on a config object, so
  ``x.NAME.get(...)`` counts too).

For a bare name a file imports (:meth:`TextStores.may_change_imported`, the name or an alias
``NAME as ALIAS`` given anywhere in the text), the same changes in place on it, and an
augmented assignment (``NAME |= ...``: a dict's or list's own change); rebinding it
(``NAME = ...``, ``for NAME in``, ``del NAME``) leaves the module's object alone.

Strings and comments are read as code (a store spelled in a docstring counts). Not seen: a
dotted name split by a backslash continuation (``x.\\`` then ``NAME = 1``), ``setattr``
called under another name, ``exec``, what a string or comment holding brackets, ``#`` or
``;`` hides (between an element of a target list and its ``=``, in an item's brackets before
a method called: ``x.NAME["]"].append(1)``), a comment between a name and the method called
on it, a change made through another name (``limits = x.NAME`` then ``limits["k"] = 1``) or
by a function the value is passed to (``configure(x.NAME)``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Iterator


@functools.cache
def _compiled(pattern: str) -> re.Pattern[str]:
    """The patterns of the rarer stores (``setattr``, target lists, star imports) are compiled
    when a text first needs them: most checks never do."""
    return re.compile(pattern)


_WORD_CHAR = re.compile(r"\w")
_AS_ALIAS = re.compile(r"\s+as\s+([A-Za-z_]\w*)")
"""What follows an imported name given an alias (``NAME as ALIAS``)."""
_GAP = r"(?:\s|\\\r?\n)*"
_NEXT_ATTRIBUTE = re.compile(_GAP + r"\." + _GAP + r"[A-Za-z_]\w*")
_OPEN_CALL = _GAP + r"\("
_OPEN_ITEM = re.compile(_GAP + r"\[")
_AUGMENTED = re.compile(r"[ \t]*(?:[-+*/%&|^@]|//|\*\*|<<|>>)=")
_STAR_IMPORT = r"\bimport(?:[ \t]|\\\r?\n)*\*"
_ASSIGNED = r"[ \t]*(?::[^=\n]*)?(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)"
"""What follows ``.NAME`` in an assignment to it, plain, augmented or annotated."""
_NOT_MODULES = r"(?:^|[^\w.])(?:self|cls)[ \t]*\Z"
_HEAD = r"\bfor\s|\bdel\s|(?<![=!<>:])=(?!=)"
"""What may precede a target list: ``for``, ``del``, an assignment's ``=`` (chained)."""
_TARGET_ELEMENTS = r"(?:[\s(\[*]*[\w.]+[\s\])]*,)*[\s(\[*]*[\w.]*"
"""What may precede an element of a target list after its head: other elements, brackets,
``*`` (comments removed)."""
_AS_TARGET = r"\bas\s+[\w.]*\Z"
_COMMENT = r"#[^\n]*"
_SETATTR = r"setattr\s*\("
_SETATTR_NAMED = (
    r"\s*(?:(['\"])(?:[\w.]*\.)?(?P<dotted>[A-Za-z_]\w*)\1\s*,"
    r"|[^,()]*,\s*(['\"])(?P<named>[A-Za-z_]\w*)\3\s*[,)])"
)
"""A name ``setattr`` stores by a string: its second argument, or the last name of a dotted
first one (``monkeypatch.setattr("pkg.settings.NAME", value)``)."""
_SETATTR_OWN = r"\s*(?:self|cls)\s*,"
_DUNDER_SETATTR = r"__setattr__\s*\("
_DUNDER_RECEIVER = r"(?:(?P<object>\bobject)|\b(?:self|cls)|\bsuper\(\s*\)|\w|\))\s*\.\s*\Z"
"""What precedes ``.__setattr__(``: ``object`` (the receiver is then the first argument), the
object's own (``self``, ``cls``, ``super()``: never a module), another receiver."""
_FIRST_NAMED = r"\s*(['\"])([A-Za-z_]\w*)\1\s*,"
_STORED_ITEM = (
    r"\s*(?:\[[^\n]*\]\s*(?:[-+*/%&|^@]|//|\*\*|<<|>>)?=(?!=)"
    r"|\.\s*(?:update|setdefault|__setitem__)\b)"
)
_DYNAMIC = {
    "vars": r"vars\s*\([^()]*\)" + _STORED_ITEM,
    "__dict__": r"__dict__" + _STORED_ITEM,
}
"""A namespace stored into by item (``vars(x)[k] = v``, ``x.__dict__.update(...)``), from its
word on (found by ``str.find``: a pattern searched through a long text costs more)."""
_CONTINUED = ("(", "[", "{", ",", "\\")
"""How a line ends when the next one may continue its statement."""
_OPENING = {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}
MAX_STATEMENT_CHARS = 4_000
"""How far from an element its statement's start and ``=`` are looked for; a statement
longer than that counts as a store."""


class TextStores:
    """The stores one text may make, each name looked for when first asked."""

    __slots__ = ("_aliases", "_answers", "_any", "_changed", "_setattr_names", "_star", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self._answers: dict[str, bool] = {}
        self._any: bool | None = None
        self._setattr_names: frozenset[str] = frozenset()
        self._changed: dict[str, bool] = {}
        self._aliases: dict[str, frozenset[str]] = {}
        self._star: bool | None = None

    def may_store(self, name: str) -> bool:
        """Whether the text may store the attribute ``name`` of some object, or change what
        it holds in place."""
        known = self._answers.get(name)
        if known is None:
            known = self._answers[name] = (
                self._stores_any() or name in self._setattr_names or _stores_name(self.text, name)
            )
        return known

    def may_change_imported(self, name: str) -> bool:
        """Whether the text may change in place what it imports as the bare name ``name`` (or
        under an alias it gives it here): see :meth:`changes_bare`."""
        return any(self.changes_bare(word) for word in (name, *self.aliases(name)))

    def changes_bare(self, word: str) -> bool:
        """Whether the text may change in place the object the bare name ``word`` holds:
        ``word[...] = ...``, ``del word[...]``, ``word.x = ...``, ``word += ...`` (any augmented
        operator: a list's or dict's own changes), a method called on it or on an item or
        attribute of it (``word.update(...)``, ``word["k"].append(...)``)."""
        known = self._changed.get(word)
        if known is None:
            known = self._changed[word] = _changes_bare(self.text, word)
        return known

    def aliases(self, name: str) -> frozenset[str]:
        """The names ``name`` may be imported as (``NAME as ALIAS``, anywhere in the text).
        Found once per name: a CLI worker asks of every file that imports the module, for
        each name its analyses read."""
        known = self._aliases.get(name)
        if known is None:
            text, after = self.text, len(name)
            found = set()
            for at in occurrences(text, name):
                if at and text[at - 1] == ".":
                    continue
                alias = _AS_ALIAS.match(text, at + after)
                if alias is not None:
                    found.add(alias.group(1))
            known = self._aliases[name] = frozenset(found)
        return known

    def star_imports(self) -> bool:
        """Whether the text may hold ``from ... import *`` (which binds every public name)."""
        if self._star is None:
            self._star = "*" in self.text and _compiled(_STAR_IMPORT).search(self.text) is not None
        return self._star

    def _stores_any(self) -> bool:
        """Whether a store the text makes may be of any name (and, first, the names
        ``setattr`` stores by a string)."""
        if self._any is None:
            text = self.text
            dynamic = any(
                _compiled(pattern).match(text, at) is not None
                for word, pattern in _DYNAMIC.items()
                for at in occurrences(text, word)
            )
            names: set[str] = set()
            if not dynamic:
                for at in occurrences(text, "setattr"):
                    call = _compiled(_SETATTR).match(text, at)
                    if call is None:
                        continue
                    if _compiled(_SETATTR_OWN).match(text, call.end()):
                        continue  # the object's own attribute: never a module's
                    named = _compiled(_SETATTR_NAMED).match(text, call.end())
                    if named is None:
                        dynamic = True  # a name computed, or a receiver not read here
                        break
                    names.add(named.group("dotted") or named.group("named"))
            if not dynamic and "__setattr__" in text:
                dynamic = _dunder_setattr(text, names)
            self._setattr_names = frozenset(names)
            self._any = dynamic
        return self._any


def _dunder_setattr(text: str, names: set[str]) -> bool:
    """Adds to ``names`` what ``x.__setattr__("NAME", ...)`` and ``object.__setattr__(x,
    "NAME", ...)`` store; True when one stores a name computed (a method's own receiver and
    ``def __setattr__`` aside)."""
    for at in occurrences(text, "__setattr__"):
        call = _compiled(_DUNDER_SETATTR).match(text, at)
        receiver = _compiled(_DUNDER_RECEIVER).search(text, max(0, at - 40), at)
        if call is None or receiver is None:
            continue  # `def __setattr__(...)`, or no call
        if receiver.group("object"):
            if _compiled(_SETATTR_OWN).match(text, call.end()):
                continue
            named = _compiled(_SETATTR_NAMED).match(text, call.end())
            if named is None:
                return True
            names.add(named.group("dotted") or named.group("named"))
            continue
        if receiver.group().rstrip(". \t").endswith(("self", "cls", ")")):
            continue  # its own, or `super()`'s (a call's result: not a module)
        first = _compiled(_FIRST_NAMED).match(text, call.end())
        if first is None:
            return True
        names.add(first.group(2))
    return False


def occurrences(text: str, word: str) -> Iterator[int]:
    """Where ``word`` starts in ``text``, not preceded by a word character."""
    at = text.find(word)
    while at >= 0:
        if at == 0 or not _WORD_CHAR.match(text, at - 1):
            yield at
        at = text.find(word, at + 1)


def whole_words(text: str, word: str) -> Iterator[tuple[int, int]]:
    """Where ``word`` stands in ``text`` as a whole word: its start and end."""
    size = len(word)
    for at in occurrences(text, word):
        if not _WORD_CHAR.match(text, at + size):
            yield at, at + size


def _before_blanks(text: str, at: int) -> int:
    """Where the last character before ``at`` that is not a space or tab is (-1: none)."""
    before = at - 1
    while before >= 0 and text[before] in " \t":
        before -= 1
    return before


def _stores_name(text: str, name: str) -> bool:
    for at, end in whole_words(text, name):
        dot = _before_blanks(text, at)
        if dot > 0 and text[dot] == "." and _is_store(text, dot, end):
            return True
    return False


def _changes_bare(text: str, word: str) -> bool:
    for at, end in whole_words(text, word):
        before = _before_blanks(text, at)
        if (before < 0 or text[before] != ".") and (
            _AUGMENTED.match(text, end)
            or _method_called(text, end)
            or (
                (_OPEN_ITEM.match(text, end) or _NEXT_ATTRIBUTE.match(text, end))
                and _is_store(text, at, end)
            )
        ):
            return True
    return False


def _method_called(text: str, at: int) -> bool:
    """Whether what follows ``at`` (the end of a name) calls a method of what the name holds,
    or of an item or attribute of it (``.update(``, ``["k"].append(``, ``.sub.clear(``)."""
    limit = min(len(text), at + MAX_STATEMENT_CHARS)
    while at < limit:
        attribute = _NEXT_ATTRIBUTE.match(text, at)
        if attribute is not None:
            at = attribute.end()
            if _compiled(_OPEN_CALL).match(text, at):
                return True
            continue
        item = _OPEN_ITEM.match(text, at)
        if item is None:
            return False
        depth = 1
        at = item.end()
        while depth and at < limit:
            depth += _OPENING.get(text[at], 0)
            at += 1
    return limit < len(text)  # too long to tell


def _is_store(text: str, dot: int, end: int) -> bool:
    """Whether ``.NAME`` (its dot at ``dot``, ending at ``end``) may be a target, or what it
    holds be changed in place by a method call (``x.NAME.update(...)``)."""
    if _compiled(_NOT_MODULES).search(text, max(0, dot - 8), dot):
        return False
    if _compiled(_ASSIGNED).match(text, end) or _method_called(text, end):
        return True
    start = _statement_start(text, dot)
    if start is None:
        return True  # too long to tell
    prefix = _compiled(_COMMENT).sub("", text[start:dot])
    if _compiled(_AS_TARGET).search(prefix):
        return True
    head = None
    for head in _compiled(_HEAD).finditer(prefix):  # noqa: B007 (the last one is wanted)
        pass
    if not _compiled(_TARGET_ELEMENTS).fullmatch(prefix, head.end() if head else 0):
        return False
    keyword = head.group().strip() if head else "="
    if keyword == "del":
        return True
    level = _depth_change(prefix[: head.start()]) if head else 0
    if keyword == "=" and level != 0:
        return False  # a keyword argument
    return _assigned_later(text, end, _depth_change(prefix), level, keyword)


def _statement_start(text: str, at: int) -> int | None:
    """Where the statement holding ``at`` may start: going back over the lines before while
    each ends with an opening bracket, a comma or a backslash, or opens more brackets than it
    closes (comments ignored); None when further than :data:`MAX_STATEMENT_CHARS`."""
    start = text.rfind("\n", 0, at) + 1
    while start > 0:
        if at - start > MAX_STATEMENT_CHARS:
            return None
        previous = text.rfind("\n", 0, start - 1) + 1
        line = _compiled(_COMMENT).sub("", text[previous : start - 1]).rstrip()
        if not line.endswith(_CONTINUED) and _depth_change(line) <= 0:
            break
        start = previous
    return start


def _depth_change(line: str) -> int:
    change = 0
    for char in _compiled(_COMMENT).sub("", line):
        change += _OPENING.get(char, 0)
    return change


def _assigned_later(text: str, end: int, depth: int, level: int, keyword: str) -> bool:
    """Whether the target list ``end`` is in ends with ``=`` (``in`` after ``for``) at its
    head's bracket depth ``level``, before its statement ends (a newline or ``;`` outside
    brackets); ``depth`` is the depth at ``end``."""
    limit = min(len(text), end + MAX_STATEMENT_CHARS)
    at = end
    while at < limit:
        char = text[at]
        if char == "#":
            newline = text.find("\n", at)
            at = newline if newline >= 0 else limit
            continue
        if char == "\\":
            at += 3 if text.startswith("\r\n", at + 1) else 2  # a line continued, an escape
            continue
        change = _OPENING.get(char)
        if change is not None:
            depth += change
        elif depth <= 0 and char in "\n;":
            return False
        elif depth <= level:  # below it: the statement began above what was looked at
            if keyword == "for":
                if char == "i" and _is_word(text, at, "in"):
                    return True
            elif char == "=" and text[at - 1] not in "=!<>:" and text[at + 1 : at + 2] != "=":
                return True
        at += 1
    return limit < len(text)  # too long to tell


def _is_word(text: str, at: int, word: str) -> bool:
    end = at + len(word)
    return (
        text.startswith(word, at)
        and not _WORD_CHAR.match(text, at - 1)
        and not _WORD_CHAR.match(text, end)
    )


def import_words(modules: Iterable[tuple[str, str]]) -> tuple[frozenset[str], frozenset[str]]:
    """From what :func:`~evalsubmit.workspace.import_text.imports_in` yields: the last names
    of every module or name imported (a module named so may be bound), and the names that
    bind a package (``import a.b`` binds ``a``; ``import a.b as m``, ``from a import b``
    bind ``a.b``): a module under that package may be reached through it."""
    last: set[str] = set()
    packages: set[str] = set()
    for module, reach in modules:
        parts = module.split(".")
        last.add(parts[-1])
        if reach == "head":
            packages.add(parts[0])
        elif reach == "module":
            packages.add(parts[-1])
    return frozenset(last), frozenset(packages)
