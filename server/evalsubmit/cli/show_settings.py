"""``evalsubmit check --show-settings PATH``: the settings ``check`` would use for one path, and
where each came from, as ``ruff check --show-settings`` prints its own.

For a file: the settings it is checked with; for a folder: those of the files directly in it
(its own configuration file, if it has one). Listed: every configuration file from the path's
folder up to the filesystem root, nearest first, with what became of it (applied, passed over
without a table, hidden by a nearer one, above the repository root, or set aside by
``--config``/``--isolated``); the rule choices and the codes they leave on, each code turned
off with what turned it off; the ``per-file-ignores`` that apply; ``exclude`` and whether the
walk leaves the path out, and by what; ``default-taskset``, ``sdk-version``, ``strict``; and the
command line's overrides. Nothing is analysed and no cache is read: only configuration files
(and ``.gitignore`` files, for the exclusion) are read.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from evalsubmit.cli.check_flags import STDIN, CheckFlags
from evalsubmit.cli.common import EXIT_CLEAN, EXIT_ERROR
from evalsubmit.cli.output import shown
from evalsubmit.cli.settings_output import Exclusion, Settings, TurnedOff, as_json, as_text
from evalsubmit.workspace.config import (
    CONFIG_NAMES,
    ConfigError,
    ConfigResolver,
    ProjectConfig,
    RuleSelection,
    expand,
)


def run(args: argparse.Namespace, flags: CheckFlags) -> int:
    """Print the settings of the one path given; 2 on an invalid configuration."""
    stdin = [str(p) for p in args.paths] == [STDIN]
    path: Path = flags.stdin_filename if stdin and flags.stdin_filename else args.paths[0]
    if not stdin and not os.path.lexists(path):
        print(f"evalsubmit: no such file or directory: {shown(path)}", file=sys.stderr)
        return EXIT_ERROR
    try:
        settings = settings_of(path, args)
    except ConfigError as error:
        print("\n".join(f"evalsubmit: {shown(line)}" for line in error.lines()), file=sys.stderr)
        return EXIT_ERROR
    from evalsubmit.cli.finish import emit

    if flags.output_format == "json":
        text = json.dumps(as_json(settings), indent=2) + "\n"
    else:
        text = as_text(settings)
    return EXIT_CLEAN if emit(text, flags.output_file, sys.stdout) else EXIT_ERROR


def settings_of(path: Path, args: argparse.Namespace) -> Settings:
    """The settings of ``path`` under the command line's flags; raises :class:`ConfigError`."""
    from evalsubmit.analysis import config_resolver
    from evalsubmit.workspace.walk import WalkRules

    resolver = config_resolver(fixed=args.config, isolated=args.isolated, overrides=args.overrides)
    absolute = Path(os.path.abspath(path))
    is_dir = absolute.is_dir()
    config = resolver.for_folder(absolute if is_dir else absolute.parent)
    files, root = _chain(absolute if is_dir else absolute.parent, config.file, args)
    files += [(extended, "extended") for extended in config.extends]
    flags = RuleSelection(
        select=args.select or None, extend_select=args.extend_select, ignore=args.ignore
    )
    per_file = list(config.per_file_ignores) if is_dir else config.per_file_ignores_for(absolute)
    codes = resolver.rule_codes
    turned_off = _turned_off(config, flags, [] if is_dir else per_file, codes)

    found: list[Exclusion] = []

    def excluded(entry: Path, entry_is_dir: bool) -> bool:
        governing = resolver.for_path(entry, entry_is_dir)
        pattern = governing.excluded_by(entry, entry_is_dir)
        if pattern is not None and governing.file is not None:
            found.append(
                Exclusion(_exclude_key(governing, pattern), entry, governing.file, pattern)
            )
        return pattern is not None

    why = WalkRules(excluded).leaves_out(absolute, is_dir=is_dir)
    exclusion = found[0] if found else None
    if why is not None and exclusion is None:
        exclusion = Exclusion(".gitignore", absolute)
    named_excluded = resolver.for_path(absolute, is_dir).excludes(absolute, is_dir)
    strict, strict_from = _strict(resolver, args)
    return Settings(
        path=absolute,
        is_dir=is_dir,
        config=config,
        files=files,
        repository_root=root,
        codes=codes,
        turned_off=turned_off,
        per_file_ignores=per_file,
        exclusion=exclusion,
        checked_when_named=not (args.force_exclude and named_excluded),
        strict=strict,
        strict_from=strict_from,
        command_line=_command_line(args),
    )


def _chain(
    start: Path, applied: Path | None, args: argparse.Namespace
) -> tuple[list[tuple[Path, str]], Path | None]:
    """Every configuration file from ``start`` up to the filesystem root, nearest first, with
    its status; and the repository root (where the search stops), if any."""
    fixed = Path(os.path.abspath(args.config)) if args.config is not None else None
    files: list[tuple[Path, str]] = [(fixed, "applied")] if fixed is not None else []
    root: str | None = None
    passed_applied = False
    directory = str(start)
    while True:
        for name in CONFIG_NAMES:
            candidate = Path(directory, name)
            if candidate == fixed or not os.path.isfile(candidate):
                continue
            if args.isolated:
                status = "isolated"
            elif fixed is not None:
                status = "config-flag"
            elif root is not None:
                status = "above-repository"
            elif candidate == applied:
                status, passed_applied = "applied", True
            else:
                status = "shadowed" if passed_applied else "no-table"
            files.append((candidate, status))
        if root is None and os.path.exists(os.path.join(directory, ".git")):
            root = directory
        parent = os.path.dirname(directory)
        if parent == directory:
            return files, Path(root) if root is not None else None
        directory = parent


def _turned_off(
    config: ProjectConfig,
    flags: RuleSelection,
    per_file: list[tuple[str, frozenset[str]]],
    codes: frozenset[str],
) -> dict[str, TurnedOff]:
    """Each code turned off, with what turned it off: the layers replayed in the order
    :func:`evalsubmit.analysis.configured_options` applies them (a ``select`` decides every
    code anew; a code already off keeps what turned it off first)."""
    off: dict[str, TurnedOff] = {}
    layers = ((config.selection, config.file, ""), (flags, None, "--"))

    def cause(key: str, file: Path | None, prefix: str, pattern: str | None = None) -> TurnedOff:
        origin = config.overridden.get(key) if not prefix else None
        if origin is not None:  # the command line set this key of the configuration
            return TurnedOff(origin if origin == f"--{key}" else f"{origin} {key}", None, pattern)
        return TurnedOff(f"{prefix}{key}", file, pattern)

    for layer, file, prefix in layers:
        if layer.select is not None:
            chosen = expand(layer.select, codes)
            off = {code: cause("select", file, prefix) for code in codes - chosen}
        for code in expand(layer.extend_select, codes):
            off.pop(code, None)
        for code in expand(layer.ignore, codes):
            off.setdefault(code, cause("ignore", file, prefix))
    for pattern, ignored in per_file:
        for code in expand(ignored, codes):
            off.setdefault(code, cause("per-file-ignores", config.file, "", pattern))
    return dict(sorted(off.items()))


def _exclude_key(config: ProjectConfig, pattern: str) -> str:
    own = config.exclude[: len(config.exclude) - len(config.extend_exclude)]
    return "exclude" if pattern in own else "extend-exclude"


def _strict(resolver: ConfigResolver, args: argparse.Namespace) -> tuple[bool, str | None]:
    """As ``check`` decides it: ``--strict``, else the configuration of the current folder."""
    if args.strict:
        return True, "--strict"
    here = resolver.for_folder(Path.cwd())
    origin = here.overridden.get("strict")
    if origin is not None and here.strict is not None:
        return here.strict, origin  # --config "strict = true"
    if here.strict is None or here.file is None:
        return False, None
    return here.strict, str(here.file)


def _command_line(args: argparse.Namespace) -> dict[str, Any]:
    return {
        "select": sorted(args.select) if args.select else None,
        "extend_select": sorted(args.extend_select),
        "ignore": sorted(args.ignore),
        "config": os.path.abspath(args.config) if args.config is not None else None,
        "isolated": bool(args.isolated),
        "force_exclude": bool(args.force_exclude),
        "strict": bool(args.strict),
        "overrides": [
            {"key": key, "value": value, "from": args.overrides.origins.get(key, "--config")}
            for key, value in {**args.overrides.replace, **args.overrides.extend}.items()
        ],
    }
