"""The schema of an evalsubmit configuration table, validated with pydantic.

Imported only for a configuration table that :mod:`.config_plain` does not find plainly
valid (most likely one in error), and for ``--config`` overrides, so a command that finds no
table, or a valid one, never pays for pydantic. Nothing here knows files or lines: it turns a
parsed TOML table into checked values, or into ``(location, message, value)`` problems that
:mod:`.config` places in the file.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Collection, Mapping
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError, ValidationInfo
from pydantic_core import PydanticCustomError

from evalsubmit.workspace.config_plain import (
    accepted_code,
    glob_problem,
    taskset_problem,
    version_problem,
)


def _kebab(name: str) -> str:
    return name.replace("_", "-")


def _code(code: str, info: ValidationInfo) -> str:
    """A rule code or prefix (``ES1``) or ``ALL`` (every rule, as in ruff), upper-cased; an
    error naming the nearest one else."""
    known: Collection[str] = (info.context or {}).get("rule_codes", ())
    upper = accepted_code(code, known)
    if upper is not None:
        return upper
    raise _error(f"unknown rule code {code!r}{_code_suggestion(code.strip().upper(), known)}")


def _glob(pattern: str) -> str:
    """A pattern gitignore-style matching can compile; an error saying why else."""
    problem = glob_problem(pattern)
    if problem is not None:
        raise _error(problem)
    return pattern


def _file_glob(pattern: str) -> str:
    """A ``per-file-ignores`` pattern; ``!glob`` applies to the files it does not match."""
    _glob(pattern.removeprefix("!"))
    return pattern


def _taskset(ref: str) -> str:
    problem = taskset_problem(ref)
    if problem is not None:
        raise _error(problem)
    return ref


def _version(version: str) -> str:
    problem = version_problem(version)
    if problem is not None:
        raise _error(problem)
    return version


def _error(message: str) -> PydanticCustomError:
    # the message goes in as a value: braces in what the user wrote are not a template
    return PydanticCustomError("config", "{message}", {"message": message})


Code = Annotated[str, AfterValidator(_code)]
Glob = Annotated[str, AfterValidator(_glob)]
FileGlob = Annotated[str, AfterValidator(_file_glob)]


class ConfigTable(BaseModel):
    """``[tool.evalsubmit]`` / an ``evalsubmit.toml``. TOML has real types, so validation is
    strict: ``select = "ES101"`` (a string, not a list) is an error, never coerced. Each value
    is checked where it is, so an error's location names the very entry."""

    model_config = ConfigDict(
        extra="forbid", strict=True, frozen=True, alias_generator=_kebab, populate_by_name=False
    )

    select: list[Code] | None = None
    extend_select: list[Code] = []
    ignore: list[Code] = []
    exclude: list[Glob] = []
    extend_exclude: list[Glob] = []
    per_file_ignores: dict[FileGlob, list[Code]] = {}
    default_taskset: Annotated[str, AfterValidator(_taskset)] | None = None
    sdk_version: Annotated[str, AfterValidator(_version)] | None = None
    strict: bool | None = None


Location = tuple[int | str, ...]
"""Where a problem is inside the table: keys and list indices (``("select", 1)``)."""
Found = tuple[Location, str, object]
"""A problem: where, what is wrong, and the value found there (to find its line)."""


def validate_table(
    table: Mapping[str, Any], rule_codes: Collection[str]
) -> tuple[ConfigTable | None, list[Found]]:
    """The checked table, or None and every problem."""
    problems: list[Found] = [
        ((str(key),), f"unknown key{_suggestion(str(key), _KEYS)}", None)
        for key in table
        if str(key) not in _KEYS
    ]
    known = {key: value for key, value in table.items() if key in _KEYS}
    try:
        model = ConfigTable.model_validate(known, context={"rule_codes": rule_codes})
    except ValidationError as error:
        problems += [(tuple(e["loc"]), _message(e), e["input"]) for e in error.errors()]
        model = None
    return (model, problems) if not problems else (None, problems)


_KEYS = tuple(_kebab(name) for name in ConfigTable.model_fields)


def _code_suggestion(code: str, known: Collection[str]) -> str:
    """The code meant: one the text starts with (``ES1011``: ``ES101``), the text with the
    letter O for a zero (``ES1O1``), else the nearest spelling."""
    longest = max((rule for rule in known if code.startswith(rule)), key=len, default=None)
    zeroed = code.replace("O", "0")
    if longest is None and any(rule.startswith(zeroed) for rule in known):
        longest = zeroed
    if longest is None:
        longest = _nearest_code(code, known)
    return f" (did you mean {longest!r}?)" if longest else _suggestion(code, sorted(known))


def _nearest_code(code: str, known: Collection[str]) -> str | None:
    """The code of the same length that differs in the fewest places (at most two; the lowest
    on a tie): ``ES909`` is ``ES109``, not ``ES190``, which spelling similarity rates as close."""
    same = sorted(rule for rule in known if len(rule) == len(code))
    if not same:
        return None
    best = min(same, key=lambda rule: sum(a != b for a, b in zip(rule, code, strict=True)))
    return best if sum(a != b for a, b in zip(best, code, strict=True)) <= 2 else None


def _suggestion(word: str, choices: Collection[str]) -> str:
    """`` (did you mean 'x'?)`` for a near miss; ``per_file_ignores`` finds ``per-file-ignores``
    and ``defaultTaskset`` finds ``default-taskset``."""
    squashed = {re.sub(r"[-_]", "", c).lower(): c for c in choices}
    exact = squashed.get(re.sub(r"[-_]", "", word).lower())
    close = [exact] if exact else difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""


_TYPE_WORDS = {
    "list_type": "a list of strings",
    "string_type": "a string",
    "bool_type": "true or false",
    "dict_type": "a table of glob = [codes]",
}


def _message(error: Any) -> str:
    """pydantic's error in the words of a TOML file (``expected a list of strings, got 'ES1'``)."""
    expected = _TYPE_WORDS.get(error["type"])
    if expected is not None:
        return f"expected {expected}, got {_toml(error['input'])}"
    return str(error["msg"])


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return f"{type(value).__name__} {value!r}"
