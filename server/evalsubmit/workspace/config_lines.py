"""Where a problem of a configuration file is written: its key as TOML spells it, and its line,
found in the text (``tomllib`` keeps no positions)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from evalsubmit.workspace.config_errors import PYPROJECT_TABLE

if TYPE_CHECKING:
    from evalsubmit.workspace.config_model import Location


def key_of(location: Location) -> str:
    """``select[1]``, ``per-file-ignores."scripts/*.py"[0]``: a location as TOML spells it."""
    shown = ""
    for part in location:
        if part == "[key]":  # pydantic's marker of an error in a table's key, not its value
            continue
        if isinstance(part, int):
            shown += f"[{part}]"
        else:
            bare = part.replace("-", "").replace("_", "").isalnum()
            spelled = part if bare else _json_string(part)
            shown += f".{spelled}" if shown else spelled
    return shown


def line_of(text: str, location: Location, value: object = None) -> int | None:
    """The line that writes the key, found in the text (best effort: ``tomllib`` keeps no
    positions). The first segment is searched as a key (``select =``, ``"select" =``) or a
    table header (``[tool.evalsubmit.per-file-ignores]``); a deeper one (a glob of
    ``per-file-ignores``) is then searched from there; an entry of a list written over
    several lines is found by its value."""
    lines = text.splitlines()
    start = 0
    for number, line in enumerate(lines):
        if line.strip().replace(" ", "") == PYPROJECT_TABLE:
            start = number
            break
    found: int | None = None
    for segment in location[:2]:
        if isinstance(segment, int):
            break
        for number in range(start, len(lines)):
            if _writes(lines[number], segment):
                found = start = number
                break
        else:
            break
    if found is not None and isinstance(location[-1], int) and isinstance(value, str):
        found = _entry_line(lines, found, value)
    return found + 1 if found is not None else None


def _entry_line(lines: list[str], key_line: int, value: str) -> int:
    """The line of the list entry ``value``, from the key's line to the list's end."""
    quoted = (_json_string(value), f"'{value}'")
    for number in range(key_line, len(lines)):
        if any(spelled in lines[number] for spelled in quoted):
            return number
        if "]" in lines[number].split("#")[0] and number > key_line:
            break
    return key_line


def _writes(line: str, key: str) -> bool:
    stripped = line.strip()
    for spelled in (key, f'"{key}"', f"'{key}'"):
        if stripped.startswith(spelled) and stripped[len(spelled) :].lstrip().startswith("="):
            return True
        header = stripped.startswith("[") and stripped.rstrip("]").lstrip("[").strip()
        if header and (header == spelled or header.endswith(f".{spelled}")):
            return True
    return False


def _json_string(value: object) -> str:
    """``json.dumps(value)``, :mod:`json` imported for an invalid file only."""
    import json

    return json.dumps(value)
