"""The imports a Python text may hold, found without parsing it (for the relevance scan,
:mod:`evalsubmit.workspace.relevance`): every ``import`` word counts, in code, strings or
comments alike, so more is found than Python would import, never less."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Literal

_CONT = r"(?:[ \t\f]|\\\r?\n)*"
_FROM_BEFORE = re.compile(rf"\bfrom\b{_CONT}(\.*){_CONT}([\w.]*){_CONT}\Z")
"""What precedes ``import`` on its logical line in a ``from`` import."""
_NAMES = re.compile(rf"{_CONT}(\([^)]*\)?|(?:[^\n\\;]|\\\r?\n)*)")
"""What follows ``import``: a parenthesised list, or the rest of the logical line."""
_DOTTED = re.compile(r"[^\W\d]\w*(?:\s*\.\s*[^\W\d]\w*)*")
_IMPORT_WORD = re.compile(r"import(?<!\wimport)(?!\w)")
"""The word ``import``, not part of a longer word (one pass of the regular expression engine
finds every one: no call per ``import`` that is part of a name such as ``important``)."""
_SPACE = re.compile(r"\s+")

Reach = Literal["head", "module", "init"]
"""What an import can reach: all of its first name's package (``import a.b`` binds ``a``), the
module named and, for a package, all of it (``import a.b as m``, ``from a import b``), or the
module's own file only (the ``a`` of ``from a import b``)."""
Statement = tuple[tuple[str, str, str | None, Reach], ...]
"""What one import statement names: (leading dots, module as written, a name imported from it
or None, reach) for each module it may reach, before relative imports are resolved."""


def imports_in(
    text: str,
    package: Callable[[], list[str]] | None,
    statements: dict[tuple[str, int], Statement] | None = None,
    scanned: Iterable[Statement] | None = None,
) -> Iterable[tuple[str, Reach]]:
    """(absolute module, what it reaches) for every import the text may hold: every ``import``
    word, in code, strings or comments alike, with what precedes it on its logical line (a
    ``from`` clause) and what follows. ``package`` gives the importer's dotted parts (None:
    relative imports stay inside an installed package, which is scanned whole). What a
    statement names depends on its text alone: ``statements`` keeps it by that text (the same
    few statements open most files of a project). ``scanned``: the text's statements, when
    another reader already found them (:func:`statements_in`)."""
    parts: list[str] | None = None
    if scanned is None:
        scanned = statements_in(text, statements)
    for statement in scanned:
        for dots, module, name, reach in statement:
            if dots:
                if package is None:
                    break  # the whole statement is relative
                if parts is None:
                    parts = package()
                base = parts[: max(len(parts) - len(dots), 0)]
                module = ".".join([*base, module] if module else base)
            if name is None:
                if module:
                    yield module, reach
            else:
                yield (f"{module}.{name}" if module else name), reach


def statements_in(
    text: str, statements: dict[tuple[str, int], Statement] | None = None
) -> Iterator[Statement]:
    """What each ``import`` word of the text names, relative imports unresolved (as
    :func:`imports_in` finds them; ``statements`` keeps them by their text)."""
    if statements is None:
        statements = {}
    for word in _IMPORT_WORD.finditer(text):
        position, end = word.span()
        names = _NAMES.match(text, end)
        listed_end = names.end() if names else end
        line = _logical_line_start(text, position)
        key = (text[line:listed_end], position - line)
        statement = statements.get(key)
        if statement is None:
            listed = names.group(1) if names else ""
            statement = statements[key] = _statement(text, line, position, listed)
        yield statement


def _statement(text: str, line: int, position: int, listed: str) -> Statement:
    """What the ``import`` at ``position`` names (its logical line starts at ``line``;
    ``listed`` is what follows it)."""
    before = _FROM_BEFORE.search(text, line, position)
    if before is None:
        found: list[tuple[str, str, str | None, Reach]] = []
        for item in listed.split(","):
            words = _DOTTED.findall(item)
            if words:
                # `import a.b` binds `a`: all of it is in reach; `import a.b as m`: a.b
                found.append(("", _clean(words[0]), None, "head" if len(words) == 1 else "module"))
        return tuple(found)
    dots, module = before.group(1), _clean(before.group(2))
    found = [(dots, module, None, "module" if "*" in listed else "init")]
    for name in _DOTTED.findall(listed):
        name = _clean(name)
        if name != "as":
            found.append((dots, module, name, "module"))
    return tuple(found)


def _logical_line_start(text: str, position: int) -> int:
    """Where the logical line holding ``position`` starts (backslash continuations joined)."""
    start = text.rfind("\n", 0, position) + 1
    while start >= 2 and text[start - 2 - (text[start - 2] == "\r") : start - 1].startswith("\\"):
        start = text.rfind("\n", 0, start - 1) + 1
    return start


def _clean(dotted: str) -> str:
    return _SPACE.sub("", dotted) if not dotted.isidentifier() else dotted
