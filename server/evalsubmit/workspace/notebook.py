"""Reading a Jupyter notebook (``.ipynb``, nbformat 4) into cells, and writing cell sources back.

Only what the analysis needs is read: each cell's kind and source. A notebook that is not valid
JSON, not nbformat 4 or not shaped like one (``cells`` a list of objects with a ``cell_type``
and a string or list-of-strings ``source``) raises :class:`InvalidNotebook` with the reason, an
:class:`~evalsubmit.core.sourcefile.UnreadableSource`: the file is skipped with a warning,
never passed silently. nbformat's full schema validation is not used: it costs an import of
jsonschema for checks (outputs, metadata) the analysis never reads.

Writing back (``--fix``) splices the new ``source`` values into the original text at the
places the reader found them, so everything else (metadata, outputs, execution counts, key
order, indentation, the final newline) stays byte for byte. A list source is written in the
list's own layout (Jupyter's one string per line, indented as the file indents it).

Standard library only.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from evalsubmit.core.cells import Cell
from evalsubmit.core.lines import split_lines_keepends
from evalsubmit.core.records import record
from evalsubmit.core.sourcefile import DEFAULT_MAX_BYTES, UnreadableSource, read_regular_file
from evalsubmit.workspace.walk import NOTEBOOK_SUFFIX, is_notebook

__all__ = ["NOTEBOOK_SUFFIX", "InvalidNotebook", "Notebook", "is_notebook", "read_notebook"]

_KINDS = {"code": "code", "markdown": "markdown", "raw": "raw"}
_WHITESPACE = re.compile(r"[ \t\n\r]*")
_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?")
_BOM = "\ufeff"
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
"""A JSON string (the text is known to be valid JSON: no need to check its escapes)."""
_LITERALS = ("true", "false", "null")
_DEEP: tuple[str, ...] = ("",) * 4
"""The path given below ``cells[i].source``'s depth: nothing there is recorded."""


class InvalidNotebook(UnreadableSource):
    """The file is not a notebook the analysis can read; ``reason`` says why."""


@record
class _SourceSlot:
    """Where a cell's ``source`` value lies in the file's text, and how it is written."""

    start: int
    end: int
    as_list: bool
    item_indent: str
    """The whitespace before each list item (``"\\n    "`` in Jupyter's files)."""
    close_indent: str
    """The whitespace before the list's ``]``."""


@record(slots=False)
class Notebook:
    """A notebook's cells (all of them, in document order) and where their sources lie."""

    path: Path
    text: str
    cells: tuple[Cell, ...]
    language: str
    """The kernel's language (``python`` when the notebook does not say)."""
    _slots: tuple[_SourceSlot, ...]
    _bom: bool = False

    @property
    def original(self) -> str:
        """The file's text as read (with its BOM, if any)."""
        return (_BOM if self._bom else "") + self.text

    @property
    def is_python(self) -> bool:
        return self.language.lower() in {"python", "python3", "ipython", "ipython3"}

    def with_sources(self, sources: Mapping[int, str]) -> str:
        """The file's text with cell ``index``'s source replaced by ``sources[index]``, every
        other byte as it was."""
        pieces: list[str] = []
        done = 0
        for index in sorted(sources):
            if not 0 <= index < len(self._slots):
                raise IndexError(f"{self.path}: no cell {index}")
            slot = self._slots[index]
            if sources[index] == self.cells[index].text:
                continue
            pieces.append(self.text[done : slot.start])
            pieces.append(_encode(sources[index], slot, self.text))
            done = slot.end
        pieces.append(self.text[done:])
        return (_BOM if self._bom else "") + "".join(pieces)


def read_notebook(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> Notebook:
    """Read ``path`` as a notebook; raises :class:`UnreadableSource` (:class:`InvalidNotebook`
    when it is read but is no nbformat 4 notebook) with the reason."""
    data = read_regular_file(path, max_bytes=max_bytes)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise InvalidNotebook(path, f"not UTF-8 JSON (byte {error.start})") from None
    return parse_notebook(path, text)


def parse_notebook(path: Path, text: str) -> Notebook:
    bom = text.startswith(_BOM)
    body = text[1:] if bom else text
    try:
        document = json.loads(body)
    except json.JSONDecodeError as error:
        reason = f"invalid JSON: {error.msg} (line {error.lineno}, column {error.colno})"
        raise InvalidNotebook(path, reason) from None
    except RecursionError:
        raise InvalidNotebook(path, "invalid JSON: nested too deeply") from None
    if not isinstance(document, dict):
        raise InvalidNotebook(path, "not a notebook: the JSON is not an object")
    version = document.get("nbformat")
    if version != 4:
        found = "no nbformat field" if version is None else f"nbformat {version!r}"
        raise InvalidNotebook(path, f"not an nbformat 4 notebook ({found})")
    raw_cells = document.get("cells")
    if not isinstance(raw_cells, list):
        raise InvalidNotebook(path, "not a notebook: 'cells' is not a list")
    cells = tuple(_cell(path, index, raw) for index, raw in enumerate(raw_cells))
    slots = _SourceLocator(body).slots()
    if len(slots) != len(cells):  # a duplicate key: json.loads keeps the last one
        raise InvalidNotebook(path, "not a notebook: its cells cannot be located")
    return Notebook(path, body, cells, _language(document), slots, bom)


def _cell(path: Path, index: int, raw: object) -> Cell:
    where = f"cell {index + 1}"
    if not isinstance(raw, dict):
        raise InvalidNotebook(path, f"not a notebook: {where} is not an object")
    kind = raw.get("cell_type")
    if not isinstance(kind, str):
        raise InvalidNotebook(path, f"not a notebook: {where} has no cell_type")
    source = raw.get("source")
    if isinstance(source, list) and all(isinstance(part, str) for part in source):
        text = "".join(source)
    elif isinstance(source, str):
        text = source
    else:
        raise InvalidNotebook(path, f"not a notebook: {where}'s source is not text")
    # an unknown cell type is not run by the kernel: never part of the module
    return Cell(_KINDS.get(kind, "raw"), text)


def _language(document: dict[str, object]) -> str:
    metadata = document.get("metadata")
    if isinstance(metadata, dict):
        info = metadata.get("language_info")
        if isinstance(info, dict) and isinstance(info.get("name"), str) and info["name"]:
            return str(info["name"])
        spec = metadata.get("kernelspec")
        if isinstance(spec, dict) and isinstance(spec.get("language"), str) and spec["language"]:
            return str(spec["language"])
    return "python"


def _encode(source: str, slot: _SourceSlot, text: str) -> str:
    ascii_only = "\\u" in text[slot.start : slot.end] and text.isascii()
    if not slot.as_list:
        return json.dumps(source, ensure_ascii=ascii_only)
    parts = split_lines_keepends(source)
    if not parts:
        return "[]"
    items = ",".join(slot.item_indent + json.dumps(p, ensure_ascii=ascii_only) for p in parts)
    return "[" + items + slot.close_indent + "]"


class _SourceLocator:
    """Walks the JSON text (already known valid) and records where each cell's ``source``
    lies: ``json`` gives values, not their places."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[_SourceSlot] = []

    def slots(self) -> tuple[_SourceSlot, ...]:
        self._value(self._skip(0), ())
        return tuple(self.found)

    def _skip(self, at: int) -> int:
        match = _WHITESPACE.match(self.text, at)
        return match.end() if match else at

    def _value(self, at: int, path: Sequence[str | int]) -> int:
        char = self.text[at]
        if char == "{":
            return self._object(at, path)
        if char == "[":
            end = self._array(at, path)
        elif char == '"':
            end = self._string(at)[1]
        elif (number := _NUMBER.match(self.text, at)) is not None:
            end = number.end()
        else:
            end = at + next(len(w) for w in _LITERALS if self.text.startswith(w, at))
        if len(path) == 3 and path[0] == "cells" and path[2] == "source":
            self.found.append(self._slot(at, end, char == "["))
        return end

    def _object(self, at: int, path: Sequence[str | int]) -> int:
        at = self._skip(at + 1)
        if self.text[at] == "}":
            return at + 1
        while True:
            key, at = self._string(at)
            at = self._skip(self._skip(at) + 1)  # past the colon
            # only cells[i].source is recorded: deeper values are walked, not tracked
            at = self._value(at, (*path, key) if len(path) < 3 else _DEEP)
            at = self._skip(at)
            if self.text[at] == "}":
                return at + 1
            at = self._skip(at + 1)

    def _string(self, at: int) -> tuple[str, int]:
        match = _STRING.match(self.text, at)
        assert match is not None  # json.loads read this text
        return json.loads(match.group()), match.end()

    def _array(self, at: int, path: Sequence[str | int]) -> int:
        at = self._skip(at + 1)
        if self.text[at] == "]":
            return at + 1
        index = 0
        while True:
            inner: Sequence[str | int] = (*path, index) if len(path) < 3 else _DEEP
            at = self._skip(self._value(at, inner))
            if self.text[at] == "]":
                return at + 1
            at = self._skip(at + 1)
            index += 1

    def _slot(self, start: int, end: int, as_list: bool) -> _SourceSlot:
        if not as_list:
            return _SourceSlot(start, end, False, "", "")
        inside = self.text[start + 1 : end - 1]
        lead = _WHITESPACE.match(inside)
        item_indent = lead.group() if lead else ""
        trail = len(inside) - len(inside.rstrip(" \t\n\r"))
        close_indent = inside[len(inside) - trail :] if inside.strip() else ""
        if not inside.strip():  # an empty list: indent as Jupyter does under this cell
            item_indent, close_indent = self._indent_guess(start)
        return _SourceSlot(start, end, True, item_indent, close_indent)

    def _indent_guess(self, start: int) -> tuple[str, str]:
        line_start = self.text.rfind("\n", 0, start) + 1
        own = self.text[line_start:start]
        indent = own[: len(own) - len(own.lstrip(" \t"))]
        if line_start == 0:
            return "", ""
        return "\n" + indent + " ", "\n" + indent
