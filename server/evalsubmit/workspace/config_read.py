"""Reading one configuration file (:mod:`.config` finds it): its table (``[tool.evalsubmit]``
of a ``pyproject.toml``, the top level of another file) with what it ``extend``s merged under
it, validated into a :class:`~.config_values.ProjectConfig`, or a :class:`ConfigError` naming
the file, the key and its line."""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.workspace.config_errors import PYPROJECT_TABLE, ConfigError, Problem
from evalsubmit.workspace.config_lines import key_of, line_of
from evalsubmit.workspace.config_merge import merged
from evalsubmit.workspace.config_values import ProjectConfig, RuleSelection
from evalsubmit.workspace.globs import GlobSet

if TYPE_CHECKING:
    from evalsubmit.workspace.config_plain import CheckedTable

MAX_CONFIG_BYTES = 1024 * 1024
MAX_EXTEND_DEPTH = 32


def _read(
    file: Path, rule_codes: Callable[[], Collection[str]]
) -> ProjectConfig | ConfigError | None:
    loaded = _extended(file, rule_codes, ())
    if loaded is None or isinstance(loaded, ConfigError):
        return loaded
    table, text, extends = loaded
    return _validated(file, text, table, rule_codes, extends)


def _extended(
    file: Path, rule_codes: Callable[[], Collection[str]], chain: tuple[Path, ...]
) -> tuple[dict[str, Any], str, tuple[Path, ...]] | ConfigError | None:
    """The file's table with what it ``extend``s merged under it, its text, and the files
    extended (nearest first)."""
    raw = _raw(file)
    if raw is None or isinstance(raw, ConfigError):
        return raw
    table, text = raw
    value = table.get("extend")
    if value is None:
        return table, text, ()
    line = line_of(text, ("extend",))
    if not isinstance(value, str):
        return ConfigError(file, [Problem("extend", "expected a path (a string)", line)])
    base = Path(os.path.expandvars(os.path.expanduser(value)))
    base = Path(os.path.normpath(file.parent / base))
    cycle = [*chain, file]
    if base in cycle or len(cycle) > MAX_EXTEND_DEPTH:
        shown = (
            " -> ".join(str(f) for f in [*cycle[cycle.index(base) :], base])
            if base in cycle
            else ""
        )
        why = f"extends itself in a cycle: {shown}" if base in cycle else "too many extends"
        return ConfigError(file, [Problem("extend", why, line)])
    if not os.path.isfile(base):
        return ConfigError(file, [Problem("extend", f"no such file: {base}", line)])
    loaded = _extended(base, rule_codes, tuple(cycle))
    if isinstance(loaded, ConfigError):
        return loaded
    if loaded is None:
        return ConfigError(
            file, [Problem("extend", f"{base} has no {PYPROJECT_TABLE} table", line)]
        )
    base_table, base_text, base_extends = loaded
    checked = _validated(base, base_text, base_table, rule_codes)
    if isinstance(checked, ConfigError):
        return checked
    codes = rule_codes()
    table = merged(base_table, table, str(base.parent), str(file.parent), codes)
    return table, text, (base, *base_extends)


def _raw(file: Path) -> tuple[dict[str, Any], str] | ConfigError | None:
    """The file's table (``[tool.evalsubmit]`` of a ``pyproject.toml``) and its text."""
    try:
        with open(file, "rb") as stream:
            data = stream.read(MAX_CONFIG_BYTES + 1)
    except OSError as error:
        return ConfigError(file, [Problem("", f"cannot read it ({error.strerror})")])
    if len(data) > MAX_CONFIG_BYTES:
        return ConfigError(file, [Problem("", f"larger than {MAX_CONFIG_BYTES} bytes")])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        # A pyproject.toml that never names evalsubmit configures nothing: passed over as
        # before. Any other is refused: replacement characters would change what was written.
        if file.name == "pyproject.toml" and b"evalsubmit" not in data:
            return None
        where = f"byte {data[error.start]:#04x} at offset {error.start}"
        return ConfigError(file, [Problem("", f"not UTF-8 ({where}); TOML files are UTF-8")])
    import tomllib  # with datetime and string: only a run that finds a config file pays for it

    try:
        document = tomllib.loads(text)
    except RecursionError:  # tomllib nests arrays and inline tables by recursion
        return ConfigError(file, [Problem("", "not valid TOML: nested too deeply")])
    except tomllib.TOMLDecodeError as error:
        position = re.search(r" \(at line (\d+), column \d+\)$", str(error))
        line = int(position.group(1)) if position else None
        why = str(error)[: position.start()] if position else str(error)
        return ConfigError(file, [Problem("", f"not valid TOML: {why}", line)])
    table: object = document
    if file.name == "pyproject.toml":
        tool = document.get("tool")
        table = tool.get("evalsubmit") if isinstance(tool, dict) else None
        if table is None:
            return None
    if not isinstance(table, dict):
        return ConfigError(file, [Problem("", f"{PYPROJECT_TABLE} must be a table")])
    return table, text


def _validated(
    file: Path,
    text: str,
    table: Mapping[str, Any],
    rule_codes: Callable[[], Collection[str]] | Collection[str],
    extends: tuple[Path, ...] = (),
) -> ProjectConfig | ConfigError:
    from evalsubmit.workspace.config_plain import CheckedTable, checked_table  # a table's

    codes = rule_codes() if callable(rule_codes) else rule_codes  # only a table has codes
    values = checked_table(table, codes)
    if values is None:
        # pydantic only now: a run that finds no table, or a valid one, never imports it
        from evalsubmit.workspace.config_model import validate_table

        model, problems = validate_table(table, codes)
        if model is None:
            placed = [
                Problem(key_of(loc), m, line_of(text, loc, value)) for loc, m, value in problems
            ]
            placed.sort(key=lambda problem: problem.line or len(text))  # in the file's order
            return ConfigError(file, placed)
        values = CheckedTable(**model.model_dump())
    return _config(file, values, dict(table), extends)


def _replace(config: ProjectConfig, **changes: Any) -> ProjectConfig:
    from evalsubmit.core.records import replace

    return replace(config, **changes)


def _config(
    file: Path, model: CheckedTable, table: dict[str, Any], extends: tuple[Path, ...]
) -> ProjectConfig:
    exclude = (*model.exclude, *model.extend_exclude)
    per_file = tuple(
        (pattern, frozenset(codes)) for pattern, codes in model.per_file_ignores.items()
    )
    return ProjectConfig(
        file=file,
        root=file.parent,
        selection=RuleSelection(
            select=frozenset(model.select) if model.select is not None else None,
            extend_select=frozenset(model.extend_select),
            ignore=frozenset(model.ignore),
        ),
        exclude=exclude,
        extend_exclude=tuple(model.extend_exclude),
        per_file_ignores=per_file,
        default_taskset=model.default_taskset,
        sdk_version=model.sdk_version,
        strict=model.strict,
        extends=extends,
        table=table,
        _exclude_spec=GlobSet.from_lines(exclude) if exclude else None,
        _per_file_specs=tuple(
            (p.startswith("!"), GlobSet.from_lines([p.removeprefix("!")]), codes)
            for p, codes in per_file
        ),
    )
