"""What ``evalsubmit check --show-settings`` found (:mod:`.show_settings` finds it), and its
renderings: readable text, and the JSON object (its keys are documented in the README's CLI
section)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from evalsubmit.cli.output import near, shown
from evalsubmit.core.records import record
from evalsubmit.workspace.config import PYPROJECT_TABLE, ProjectConfig

JSON_VERSION = 1

STATUS_TEXT = {
    "applied": "applies",
    "no-table": f"passed over: no {PYPROJECT_TABLE} table",
    "shadowed": "not used: a nearer file applies (files are not merged)",
    "above-repository": "not used: above the repository root",
    "config-flag": "not used: --config names the file to use",
    "isolated": "not used: --isolated",
    "extended": "read first: the file above `extend`s it",
}
"""What became of a configuration file found on the way up (the JSON's ``status``)."""


@record
class TurnedOff:
    """What turned a rule off: ``by`` is the key (``select``, ``ignore``, ``per-file-ignores``)
    of ``file``, or the flag (``--select``, ``--ignore``) when ``file`` is None."""

    by: str
    file: Path | None = None
    pattern: str | None = None


@record
class Exclusion:
    """Why the walk leaves the path out: ``path`` (it or a folder above it) matched ``pattern``
    of ``key`` in ``file``; or ``key`` is ``.gitignore`` (no file, no pattern)."""

    key: str
    path: Path
    file: Path | None = None
    pattern: str | None = None


@record
class Settings:
    path: Path
    is_dir: bool
    config: ProjectConfig
    files: list[tuple[Path, str]]
    """Every configuration file on the way up, nearest first, and its status."""
    repository_root: Path | None
    codes: frozenset[str]
    turned_off: dict[str, TurnedOff]
    per_file_ignores: list[tuple[str, frozenset[str]]]
    exclusion: Exclusion | None
    checked_when_named: bool
    strict: bool
    strict_from: str | None
    """``--strict``, the file whose ``strict`` is used, or None (the default)."""
    command_line: dict[str, Any]


def _optional(path: Path | None) -> str | None:
    return str(path) if path is not None else None


def as_json(settings: Settings) -> dict[str, Any]:
    config = settings.config
    selection = config.selection
    enabled = sorted(settings.codes - settings.turned_off.keys())
    exclusion = settings.exclusion
    return {
        "version": JSON_VERSION,
        "path": str(settings.path),
        "is_folder": settings.is_dir,
        "config_file": _optional(config.file),
        "config_files": [{"file": str(f), "status": status} for f, status in settings.files],
        "repository_root": _optional(settings.repository_root),
        "select": sorted(selection.select) if selection.select is not None else None,
        "extend_select": sorted(selection.extend_select),
        "ignore": sorted(selection.ignore),
        "enabled": enabled,
        "disabled": [
            {"code": code, "by": why.by, "file": _optional(why.file), "pattern": why.pattern}
            for code, why in settings.turned_off.items()
        ],
        "per_file_ignores": [
            {"pattern": pattern, "codes": sorted(codes)}
            for pattern, codes in settings.per_file_ignores
        ],
        "exclude": list(config.exclude[: len(config.exclude) - len(config.extend_exclude)]),
        "extend_exclude": list(config.extend_exclude),
        "excluded": None
        if exclusion is None
        else {
            "by": exclusion.key,
            "path": str(exclusion.path),
            "file": _optional(exclusion.file),
            "pattern": exclusion.pattern,
        },
        "checked_when_named": settings.checked_when_named,
        "default_taskset": config.default_taskset,
        "sdk_version": config.sdk_version,
        "strict": settings.strict,
        "strict_from": settings.strict_from,
        "command_line": settings.command_line,
    }


def as_text(settings: Settings) -> str:
    config = settings.config
    selection = config.selection
    what = "folder: the settings of the files in it" if settings.is_dir else "file"
    lines = [f"Settings for {shown(near(settings.path))} ({what})", ""]
    lines.append("Configuration files (nearest first):")
    if not settings.files:
        lines.append("  none found: every setting has its default")
    lines += [f"  {shown(near(f))}: {STATUS_TEXT[status]}" for f, status in settings.files]
    root = settings.repository_root
    lines.append(
        f"Repository root: {shown(root)} (the search stops there)"
        if root is not None
        else "Repository root: none (not in a repository: the search goes to the filesystem root)"
    )
    lines.append(f"In effect: {shown(near(config.file)) if config.file else 'none (defaults)'}")
    lines += ["", "Rules:"]
    select = _toml(sorted(selection.select)) if selection.select is not None else "(every rule)"
    lines.append(f"  select = {select}")
    lines.append(f"  extend-select = {_toml(sorted(selection.extend_select))}")
    lines.append(f"  ignore = {_toml(sorted(selection.ignore))}")
    enabled = sorted(settings.codes - settings.turned_off.keys())
    lines.append(f"  enabled ({len(enabled)}): {', '.join(enabled) or 'none'}")
    lines.append(f"  turned off ({len(settings.turned_off)}):")
    by_cause: dict[TurnedOff, list[str]] = {}
    for code, why in settings.turned_off.items():
        by_cause.setdefault(why, []).append(code)
    for why, codes in by_cause.items():
        lines.append(f"    {', '.join(codes)}: by {_cause(why)}")
    heading = (
        "per-file-ignores (each applies by file name)"
        if settings.is_dir
        else ("per-file-ignores that apply to this file")
    )
    lines.append(f"  {heading}:{'' if settings.per_file_ignores else ' none'}")
    lines += [
        f"    {_toml(pattern)} = {_toml(sorted(codes))}"
        for pattern, codes in settings.per_file_ignores
    ]
    lines += ["", "Exclusion:"]
    own = config.exclude[: len(config.exclude) - len(config.extend_exclude)]
    lines.append(f"  exclude = {_toml(list(own))}")
    lines.append(f"  extend-exclude = {_toml(list(config.extend_exclude))}")
    lines.append(f"  excluded: {_exclusion_text(settings)}")
    lines += ["", "Other settings:"]
    lines.append(f"  default-taskset = {_toml(config.default_taskset)}")
    lines.append(f"  sdk-version = {_toml(config.sdk_version)}")
    strict_from = settings.strict_from
    source = (
        "default"
        if strict_from is None
        else (
            strict_from
            if strict_from.startswith("--")
            else f"{near(Path(strict_from))}, the configuration of the current folder"
        )
    )
    lines.append(f"  strict = {_toml(settings.strict)} ({shown(source)})")
    lines += ["", f"Command-line overrides: {_flags_text(settings.command_line)}"]
    return "\n".join(lines) + "\n"


def _cause(why: TurnedOff) -> str:
    if why.file is None:
        return why.by
    pattern = f" {_toml(why.pattern)}" if why.pattern is not None else ""
    return f"{why.by}{pattern} in {shown(near(why.file))}"


def _exclusion_text(settings: Settings) -> str:
    exclusion = settings.exclusion
    if exclusion is None:
        return "no"
    if exclusion.key == ".gitignore":
        text = "yes, by a .gitignore"
    else:
        which = "" if exclusion.path == settings.path else f" (its folder {near(exclusion.path)})"
        text = (
            f"yes{which}, by {exclusion.key} {_toml(exclusion.pattern)} in "
            f"{near(exclusion.file) if exclusion.file else ''}"
        )
    named = "checked" if settings.checked_when_named else "left out too (--force-exclude)"
    return f"{shown(text)} (the walk leaves it out)\n  named on the command line: {named}"


def _flags_text(flags: dict[str, Any]) -> str:
    words = [
        f"--{key.replace('_', '-')} {','.join(flags[key])}"
        for key in ("select", "extend_select", "ignore")
        if flags[key]
    ]
    words += [f"--config {flags['config']}"] if flags["config"] is not None else []
    words += [
        f"--{key.replace('_', '-')}"
        for key in ("isolated", "force_exclude", "strict")
        if flags[key]
    ]
    for override in flags.get("overrides", []):
        value = override["value"]
        value = _toml(list(value) if isinstance(value, tuple) else value)
        key = f" {override['key']} =" if override["from"] == "--config" else ""
        words.append(f"{override['from']}{key} {value}")
    return shown(" ".join(words)) if words else "none"


def _toml(value: object) -> str:
    """``value`` as TOML writes it (``["ES1"]``, ``"qa/smoke"``, ``true``); unset: ``(not set)``."""
    if value is None:
        return "(not set)"
    if isinstance(value, bool):
        return "true" if value else "false"
    return json.dumps(value)
