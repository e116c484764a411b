"""A configuration table read without pydantic, when it is valid.

Importing pydantic and building :class:`.config_model.ConfigTable` costs several times a
one-file check's whole start-up, so a table is first read here, against the same checks
(:func:`accepted_code`, :func:`glob_problem`, :func:`taskset_problem`,
:func:`version_problem`, which the model's validators call too) and types at least as strict
as the model's. :func:`checked_table` gives the values the model would, or None as soon as
anything is not plainly valid: the model then validates the table and says what is wrong, in
its words and at its places, so a table in error reads exactly as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from typing import Any, Final

from evalsubmit.core.records import Record
from evalsubmit.sdk.grammar import taskset_ref_problem
from evalsubmit.workspace.globs import GlobError, compile_glob

KEYS = (
    "select",
    "extend-select",
    "ignore",
    "exclude",
    "extend-exclude",
    "per-file-ignores",
    "default-taskset",
    "sdk-version",
    "strict",
)
"""The keys of a table, as written (the model's fields, kebab-cased: a test keeps them equal)."""

VERSION = re.compile(
    r"(\d+!)?\d+(\.\d+)*((a|b|rc)\d+)?(\.post\d+)?(\.dev\d+)?(\+[a-z0-9]+(\.[a-z0-9]+)*)?",
    re.IGNORECASE,
)
"""A public PEP 440 version in its normal form (``0.6.0``, ``0.7.0rc1``, ``1.0.post2``)."""


class CheckedTable(Record):
    """The values of a valid table (those of ``ConfigTable``'s fields): codes upper-cased."""

    __slots__ = (
        "default_taskset",
        "exclude",
        "extend_exclude",
        "extend_select",
        "ignore",
        "per_file_ignores",
        "sdk_version",
        "select",
        "strict",
    )
    select: Final[list[str] | None]
    extend_select: Final[list[str]]
    ignore: Final[list[str]]
    exclude: Final[list[str]]
    extend_exclude: Final[list[str]]
    per_file_ignores: Final[dict[str, list[str]]]
    default_taskset: Final[str | None]
    sdk_version: Final[str | None]
    strict: Final[bool | None]

    def __init__(
        self,
        select: list[str] | None,
        extend_select: list[str],
        ignore: list[str],
        exclude: list[str],
        extend_exclude: list[str],
        per_file_ignores: dict[str, list[str]],
        default_taskset: str | None,
        sdk_version: str | None,
        strict: bool | None,
    ) -> None:
        self.select = select
        self.extend_select = extend_select
        self.ignore = ignore
        self.exclude = exclude
        self.extend_exclude = extend_exclude
        self.per_file_ignores = per_file_ignores
        self.default_taskset = default_taskset
        self.sdk_version = sdk_version
        self.strict = strict


def accepted_code(code: str, known: Collection[str]) -> str | None:
    """A rule code or prefix (``ES1``) or ``ALL``, upper-cased; None when it names no rule."""
    upper = code.strip().upper()
    if upper == "ALL" or (upper and any(rule.startswith(upper) for rule in known)):
        return upper
    return None


def glob_problem(pattern: str) -> str | None:
    """Why ``pattern`` is no pattern gitignore-style matching can compile; None when it is."""
    if not pattern.strip():
        return "an empty pattern matches nothing"
    try:
        compile_glob(pattern)
    except GlobError as error:
        return f"{pattern!r} is not a valid glob ({error})"
    return None


def taskset_problem(ref: str) -> str | None:
    problem = taskset_ref_problem(ref)
    return None if problem is None else f"{ref!r} is not a taskset reference: {problem}"


def version_problem(version: str) -> str | None:
    if VERSION.fullmatch(version):
        return None
    return f'{version!r} is not a version (expected e.g. "0.6.0")'


class _NotPlain(Exception):
    """Something the model must look at (and, most likely, report)."""


def checked_table(table: Mapping[str, Any], known: Collection[str]) -> CheckedTable | None:
    """The table's values when every key is known and every value valid (codes checked
    against ``known``), else None."""
    if any(key not in KEYS for key in table):
        return None
    try:
        select = table.get("select")
        per_file = _table_of_codes(table.get("per-file-ignores", {}), known)
        return CheckedTable(
            select=None if select is None else _codes(select, known),
            extend_select=_codes(table.get("extend-select", []), known),
            ignore=_codes(table.get("ignore", []), known),
            exclude=_globs(table.get("exclude", [])),
            extend_exclude=_globs(table.get("extend-exclude", [])),
            per_file_ignores=per_file,
            default_taskset=_checked(table.get("default-taskset"), taskset_problem),
            sdk_version=_checked(table.get("sdk-version"), version_problem),
            strict=_flag(table.get("strict")),
        )
    except _NotPlain:
        return None


def _strings(value: object) -> list[str]:
    if type(value) is not list or any(type(item) is not str for item in value):
        raise _NotPlain
    return value


def _codes(value: object, known: Collection[str]) -> list[str]:
    codes = [accepted_code(code, known) for code in _strings(value)]
    if None in codes:
        raise _NotPlain
    return [code for code in codes if code is not None]


def _globs(value: object) -> list[str]:
    patterns = _strings(value)
    if any(glob_problem(pattern) is not None for pattern in patterns):
        raise _NotPlain
    return patterns


def _table_of_codes(value: object, known: Collection[str]) -> dict[str, list[str]]:
    if type(value) is not dict:
        raise _NotPlain
    checked: dict[str, list[str]] = {}
    for pattern, codes in value.items():
        if type(pattern) is not str or glob_problem(pattern.removeprefix("!")) is not None:
            raise _NotPlain
        checked[pattern] = _codes(codes, known)
    return checked


def _checked(value: object, problem: Callable[[str], str | None]) -> str | None:
    if value is None:
        return None
    if type(value) is not str or problem(value) is not None:
        raise _NotPlain
    return value


def _flag(value: object) -> bool | None:
    if value is not None and type(value) is not bool:
        raise _NotPlain
    return value
