"""Whether a ``pyproject.toml`` is certainly valid TOML, without :mod:`tomllib`.

A ``pyproject.toml`` without the ``[tool.evalsubmit]`` table is passed over, but one that is not
valid TOML is an error (:mod:`.config`): its text must be checked either way. Importing
``tomllib`` (with ``datetime`` and ``string``) costs ~5-10 ms of CPU, a tenth of a one-file
check's start-up; most such files (``[project]`` with its name, version and dependencies) are
plain enough to be recognised here instead.

:func:`certainly_valid` accepts only a small subset of TOML (tables by bare keys, bare keys set
to single-line strings without escapes, booleans, decimal integers, arrays of those) and checks
what makes such a document invalid (a key or a table defined twice, a table where a value is).
Anything else (floats, dates, quoted or dotted keys, escapes, inline tables, arrays of tables,
multi-line strings) answers False: the caller then parses with ``tomllib``. A True is therefore
never wrong; a differential test against ``tomllib`` holds it to that.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(
    r"""
    (?P<space>[ \t]+)
    | (?P<comment>\#[^\x00-\x08\x0a-\x1f\x7f]*)
    | (?P<newline>\n)
    | (?P<string>"[^"\\\x00-\x08\x0a-\x1f\x7f]*"|'[^'\x00-\x08\x0a-\x1f\x7f]*')
    | (?P<bare>[A-Za-z0-9_-]+)
    | (?P<punct>[\[\]=,.])
    """,
    re.VERBOSE,
)
_INTEGER = re.compile(r"-?(?:0|[1-9][0-9]{0,17})")
_SCALAR_WORDS = ("true", "false")
_MAX_DEPTH = 16

Token = tuple[str, str]


def certainly_valid(text: str) -> bool:
    """True when ``text`` is a TOML document of the plain subset (so ``tomllib`` parses it);
    False when it is not valid TOML or not plain enough to tell."""
    tokens = _tokens(text.replace("\r\n", "\n"))
    if tokens is None:
        return False
    try:
        return _Document(tokens).valid()
    except _NotPlain:
        return False


class _NotPlain(Exception):
    """Not valid TOML, or beyond the subset: tomllib decides."""


def _tokens(text: str) -> list[Token] | None:
    """The tokens (spaces and comments left out), or None when a character is beyond them."""
    tokens: list[Token] = []
    position = 0
    end = len(text)
    match = _TOKEN.match
    while position < end:
        found = match(text, position)
        if found is None:
            return None
        kind = found.lastgroup
        assert kind is not None
        if kind not in ("space", "comment"):
            tokens.append((kind, found.group()))
        position = found.end()
    return tokens


class _Document:
    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.at = 0
        self.values: set[tuple[str, ...]] = set()
        """Paths set to a value (a string, a boolean, an array...)."""
        self.tables: set[tuple[str, ...]] = {()}
        """Paths that are tables, defined by a header or above one."""
        self.headers: set[tuple[str, ...]] = set()
        self.depth = 0
        """Arrays open around the value being read (deeper ones: tomllib decides)."""

    def valid(self) -> bool:
        table: tuple[str, ...] = ()
        while (token := self._next()) is not None:
            kind, text = token
            if kind == "newline":
                continue
            if token == ("punct", "["):
                table = self._header()
            elif kind == "bare":
                self._key_value(table, text)
            else:
                raise _NotPlain
            self._end_of_line()
        return True

    def _next(self) -> Token | None:
        if self.at == len(self.tokens):
            return None
        token = self.tokens[self.at]
        self.at += 1
        return token

    def _expect(self, wanted: Token) -> None:
        if self._next() != wanted:
            raise _NotPlain

    def _end_of_line(self) -> None:
        token = self._next()
        if token is not None and token[0] != "newline":
            raise _NotPlain

    def _header(self) -> tuple[str, ...]:
        """``[a.b]`` (bare keys only), after its ``[``: the table's path."""
        kind, text = self._next() or ("", "")
        if kind != "bare":  # `[[` (an array of tables), a quoted key, nothing
            raise _NotPlain
        path: tuple[str, ...] = (text,)
        while (token := self._next()) != ("punct", "]"):
            if token != ("punct", ".") or (following := self._next()) is None:
                raise _NotPlain
            if following[0] != "bare":
                raise _NotPlain
            path += (following[1],)
        # defined once; no value on the way (`a = 1` then `[a.b]`)
        if path in self.headers or path in self.values:
            raise _NotPlain
        for length in range(1, len(path)):
            if path[:length] in self.values:
                raise _NotPlain
            self.tables.add(path[:length])
        self.headers.add(path)
        self.tables.add(path)
        return path

    def _key_value(self, table: tuple[str, ...], key: str) -> None:
        """``key = value`` in ``table``, after the key."""
        self._expect(("punct", "="))
        path = (*table, key)
        if path in self.values or path in self.tables:
            raise _NotPlain
        self.values.add(path)
        self._value()

    def _value(self) -> None:
        kind, text = self._next() or ("", "")
        if kind == "string":
            return
        if kind == "bare":
            if text in _SCALAR_WORDS or _INTEGER.fullmatch(text):
                return
            raise _NotPlain
        if (kind, text) == ("punct", "[") and self.depth < _MAX_DEPTH:
            self.depth += 1
            self._array()
            self.depth -= 1
            return
        raise _NotPlain

    def _array(self) -> None:
        """The rest of an array after its ``[``: values separated by commas (a trailing one
        allowed), with newlines and comments anywhere between them."""
        while True:
            token = self._skip_newlines()
            if token == ("punct", "]"):
                return
            self.at -= 1
            self._value()
            token = self._skip_newlines()
            if token == ("punct", "]"):
                return
            if token != ("punct", ","):
                raise _NotPlain

    def _skip_newlines(self) -> Token | None:
        while (token := self._next()) is not None and token[0] == "newline":
            pass
        if token is None:
            raise _NotPlain
        return token
