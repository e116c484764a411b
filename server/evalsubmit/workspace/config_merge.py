"""How configuration tables combine, as ruff combines its own: a file's ``extend = "base.toml"``
(the base read first, relative to the file, its settings then overridden by the file's), and
the command line's overrides (``--config KEY=VALUE``, ``--exclude``, ``--extend-exclude``,
``--per-file-ignores``), which replace the keys they name in every configuration, or stand for
one where no file is found.

Tables are merged before they are validated, so a merged table is checked like a written one.
Patterns keep the meaning they had where they were written: a base file's patterns, relative
to its own folder, are rewritten relative to the extending file's folder.
"""

from __future__ import annotations

import os
from collections.abc import Collection, Mapping
from typing import Any, Final

from evalsubmit.core.records import Record

PATTERN_KEYS = ("exclude", "extend-exclude")


class Overrides(Record):
    """The command line's changes to every configuration: ``replace`` sets keys, ``extend``
    appends to lists (``--extend-exclude``) and tables (``--extend-per-file-ignores``);
    ``origins`` names the option that set each key (``--config``, ``--exclude``), for
    ``--show-settings``."""

    __slots__ = ("extend", "origins", "replace")
    replace: Final[Mapping[str, Any]]
    extend: Final[Mapping[str, Any]]
    origins: Final[Mapping[str, str]]

    def __init__(
        self,
        replace: Mapping[str, Any] | None = None,
        extend: Mapping[str, Any] | None = None,
        origins: Mapping[str, str] | None = None,
    ) -> None:
        self.replace = {} if replace is None else replace
        self.extend = {} if extend is None else extend
        self.origins = {} if origins is None else origins

    def __bool__(self) -> bool:
        return bool(self.replace or self.extend)

    def apply(self, table: Mapping[str, Any]) -> dict[str, Any]:
        merged = {**table, **self.replace}
        for key, values in self.extend.items():
            before = merged.get(key)
            if isinstance(values, Mapping):  # --extend-per-file-ignores: entries added
                merged[key] = {**(before if isinstance(before, dict) else {}), **values}
            else:
                merged[key] = [*(before if isinstance(before, list) else []), *values]
        return merged


NO_OVERRIDES = Overrides()


def merged(
    base: Mapping[str, Any],
    child: Mapping[str, Any],
    base_root: str,
    root: str,
    codes: Collection[str],
) -> dict[str, Any]:
    """``child`` over ``base`` (ruff's ``extend``): a key the child sets wins, except that
    ``extend-exclude`` and, when the child has no ``select``, ``extend-select`` and ``ignore``
    add to the base's (the rule choices apply as two layers: base, then child)."""
    base = rebased(base, base_root, root)
    out = {**base, **child}
    out["extend-exclude"] = [*_list(base, "extend-exclude"), *_list(child, "extend-exclude")]
    if "select" not in child:
        extra = _list(child, "extend-select")
        out["extend-select"] = [*_list(base, "extend-select"), *extra]
        out["ignore"] = [
            *_ignores_left(_list(base, "ignore"), extra, codes),
            *_list(child, "ignore"),
        ]
    out.pop("extend", None)
    return {key: value for key, value in out.items() if value != [] or key in child}


def _list(table: Mapping[str, Any], key: str) -> list[Any]:
    value = table.get(key, [])
    return list(value) if isinstance(value, list) else []


def _ignores_left(ignored: list[Any], selected: list[Any], codes: Collection[str]) -> list[Any]:
    """The base's ignores that the child's ``extend-select`` does not turn back on (a prefix
    partly turned back on becomes the codes it still turns off)."""
    wanted = tuple(str(s).upper() for s in selected)
    left: list[Any] = []
    for prefix in ignored:
        if not isinstance(prefix, str):
            left.append(prefix)  # validated later, with its own message
            continue
        named = {c for c in codes if c.startswith(prefix.upper()) or prefix.upper() == "ALL"}
        back_on = {c for c in named if c.startswith(wanted)} if wanted else set()
        if not back_on:
            left.append(prefix)
        else:
            left += sorted(named - back_on)
    return left


def rebased(table: Mapping[str, Any], base_root: str, root: str) -> dict[str, Any]:
    """``table``'s patterns, written relative to ``base_root``, relative to ``root``; a pattern
    that can match nothing under ``root`` is dropped. A bare name (``tests``) matches at any
    depth wherever it is written, as ruff's single-path patterns do."""
    if os.path.normpath(base_root) == os.path.normpath(root):
        return dict(table)
    out = dict(table)
    for key in PATTERN_KEYS:
        if isinstance(table.get(key), list):
            out[key] = [
                moved
                for p in table[key]
                if (moved := rebase(p, base_root, root) if isinstance(p, str) else p) is not None
            ]
    per_file = table.get("per-file-ignores")
    if isinstance(per_file, dict):
        out["per-file-ignores"] = {
            moved: codes
            for p, codes in per_file.items()
            if (moved := rebase(str(p), base_root, root)) is not None
        }
    return out


def rebase(pattern: str, base_root: str, root: str) -> str | None:
    """A gitignore-style ``pattern`` relative to ``base_root``, relative to ``root`` instead;
    None when it can match nothing under ``root``."""
    negated = pattern.startswith("!")
    body = pattern.removeprefix("!")
    if "/" not in body.rstrip("/"):
        return pattern  # a name matched at any depth (ruff's single-path patterns): anywhere
    body = body.lstrip("/")
    relative = os.path.relpath(os.path.abspath(root), os.path.abspath(base_root))
    relative = relative.replace(os.sep, "/")
    if relative.startswith(".."):  # root is above base_root (or beside it)
        down = os.path.relpath(os.path.abspath(base_root), os.path.abspath(root))
        down = down.replace(os.sep, "/")
        if down.startswith(".."):
            return None  # beside: nothing under root was under base_root
        moved = f"{down}/{body}"
    elif body.startswith(f"{relative}/"):
        moved = body[len(relative) + 1 :]
    elif body.startswith("**"):
        moved = body
    else:
        return None
    return f"{'!' if negated else ''}{moved}"
