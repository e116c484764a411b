"""``check``'s configuration: the project's configuration file, and the flags over it.

Precedence, lowest first: the nearest configuration file of each checked file
(:mod:`evalsubmit.workspace.config`), then the command line (``--select`` replaces the file's
choice, ``--extend-select`` and ``--ignore`` add to it), then the file's ``per-file-ignores``.
``--config PATH`` uses one file for every checked file; ``--isolated`` uses none.
``--config KEY=VALUE`` (a TOML fragment, told apart from a path as ruff does), ``--exclude``,
``--extend-exclude`` and ``--per-file-ignores`` change every configuration (or make one where
no file applies): :class:`~evalsubmit.workspace.config_merge.Overrides`.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.workspace.config import ConfigError, ProjectConfig, RuleSelection
from evalsubmit.workspace.config_merge import Overrides
from evalsubmit.workspace.walk import SUFFIXES, WalkRules, python_files

if TYPE_CHECKING:
    from evalsubmit.analysis import AnalysisOptions

# The rules and the analysis load when a run needs them: building the parser loads neither.

__all__ = [
    "CheckConfiguration",
    "ConfigError",
    "add_config_options",
    "config_arguments",
    "rule_codes",
]


def rule_codes(text: str) -> frozenset[str]:
    """A comma-separated list of rule codes or prefixes (``ES1``), checked against the rules."""
    from evalsubmit.analysis.rule_codes import RULE_CODES

    codes = frozenset(code.strip().upper() for code in text.split(",") if code.strip())
    unknown = [c for c in codes if c != "ALL" and not any(r.startswith(c) for r in RULE_CODES)]
    if unknown:
        raise argparse.ArgumentTypeError(f"unknown rule code(s): {', '.join(sorted(unknown))}")
    return codes


def add_config_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--extend-select",
        type=rule_codes,
        default=frozenset(),
        help="codes to report in addition to the configuration's select",
    )
    parser.add_argument(
        "--config",
        metavar="CONFIG_OPTION",
        action="append",
        default=[],
        dest="config_options",
        help="a configuration file to use for every checked file instead of the nearest one "
        "(an evalsubmit.toml, or a pyproject.toml with [tool.evalsubmit]), or a TOML "
        "`KEY = VALUE` pair overriding that key in every configuration "
        "(`--config \"select = ['ES104']\"`); repeatable",
    )
    parser.add_argument(
        "--isolated",
        "--no-config",
        dest="isolated",
        action="store_true",
        help="ignore every configuration file",
    )
    parser.add_argument(
        "--force-exclude",
        action="store_true",
        help="apply the configuration's exclude to files named on the command line too",
    )
    parser.add_argument(
        "--exclude",
        metavar="GLOBS",
        help="comma-separated patterns to leave out, instead of the configuration's exclude",
    )
    parser.add_argument(
        "--extend-exclude",
        metavar="GLOBS",
        help="comma-separated patterns to leave out, in addition to the configuration's",
    )
    parser.add_argument(
        "--per-file-ignores",
        metavar="GLOB:CODES",
        help="`GLOB:CODE[,CODE...][,GLOB:CODE...]`: codes turned off in the files a glob "
        "matches, instead of the configuration's per-file-ignores",
    )
    parser.add_argument(
        "--extend-per-file-ignores",
        metavar="GLOB:CODES",
        help="as --per-file-ignores, in addition to the configuration's",
    )


def config_arguments(args: argparse.Namespace) -> str | None:
    """Sort ``--config`` values into ``args.config`` (the one file, or None) and
    ``args.overrides`` (with ``--exclude``, ``--extend-exclude``, ``--per-file-ignores``);
    the usage error, if any."""
    args.config, args.overrides = None, Overrides()
    given = (
        args.exclude,
        args.extend_exclude,
        args.per_file_ignores,
        args.extend_per_file_ignores,
    )
    if not args.config_options and all(value is None for value in given):
        return None  # nothing to sort: no rule registry or pydantic loaded for it
    from evalsubmit.analysis.rule_codes import RULE_CODES
    from evalsubmit.workspace.config_model import validate_table

    files: list[Path] = []
    replace: dict[str, object] = {}
    origins: dict[str, str] = {}
    for value in args.config_options:
        if os.path.isfile(value) or "=" not in value:  # a path (read, or said unreadable)
            files.append(Path(value))
            continue
        table = _toml_pair(value)
        if isinstance(table, str):
            return table
        replace.update(table)
        origins.update(dict.fromkeys(table, "--config"))
    if len(files) > 1:
        return "--config names one configuration file; the others must be KEY = VALUE pairs"
    if files and args.isolated:
        return "--config PATH and --isolated contradict each other: give one"
    for flag, key in (("exclude", "exclude"), ("per_file_ignores", "per-file-ignores")):
        text = getattr(args, flag)
        if text is not None:
            parsed = _per_file(text) if flag == "per_file_ignores" else _globs(text)
            if isinstance(parsed, str):
                return parsed
            replace[key] = parsed
            origins[key] = f"--{key}"
    extend: dict[str, Any] = {}
    if args.extend_exclude is not None:
        extend["extend-exclude"] = tuple(_globs(args.extend_exclude))
        origins["extend-exclude"] = "--extend-exclude"
    if args.extend_per_file_ignores is not None:
        added = _per_file(args.extend_per_file_ignores)
        if isinstance(added, str):
            return added
        extend["per-file-ignores"] = added
        origins.setdefault("per-file-ignores", "--extend-per-file-ignores")
    checked = {k: list(v) if isinstance(v, tuple) else v for k, v in extend.items()}
    _, problems = validate_table({**replace, **checked}, RULE_CODES)
    for location, message, _value in problems:
        key = str(location[0]) if location else ""
        return f"{origins.get(key, '--config')} {key}: {message}"
    args.config = files[0] if files else None
    args.overrides = Overrides(replace, extend, origins)
    return None


def _toml_pair(value: str) -> dict[str, object] | str:
    """``KEY = VALUE`` as a table; a usage message (ruff's tip) when it is neither that nor a
    file."""
    import tomllib

    tip = (
        f"--config {value!r}: not a file, nor a TOML `KEY = VALUE` pair; a --config flag "
        "must either be a path to a .toml configuration file or a TOML `<KEY> = <VALUE>` "
        "pair overriding a specific configuration option"
    )
    if "=" not in value:
        return tip
    try:
        table = tomllib.loads(value)
    except tomllib.TOMLDecodeError as error:
        return f"{tip} ({error})"
    if len(table) != 1:
        return f"--config {value!r}: give one `KEY = VALUE` pair per --config"
    return dict(table)


def _globs(text: str) -> list[str]:
    return [glob.strip() for glob in text.split(",") if glob.strip()]


def _per_file(text: str) -> dict[str, list[str]] | str:
    """ruff's ``GLOB:CODE`` pairs, comma-separated; a bare code adds to the pair before it."""
    table: dict[str, list[str]] = {}
    pattern: str | None = None
    for item in _globs(text):
        if ":" in item:
            pattern, code = item.rsplit(":", 1)
            table.setdefault(pattern, [])
        else:
            code = item
        if pattern is None:
            return f"--per-file-ignores {text!r}: expected GLOB:CODE[,CODE...]"
        table[pattern] += [code.strip()] if code.strip() else []
    return table


class CheckConfiguration:
    """The configuration of one ``check`` run: which files, and each file's options. Every
    method may raise :class:`ConfigError` (exit 2): a configuration file is found only when
    a path under it is met."""

    def __init__(self, args: argparse.Namespace) -> None:
        from evalsubmit.analysis import config_resolver

        self._resolver = config_resolver(
            fixed=args.config,
            isolated=args.isolated,
            remember_folders=True,
            overrides=args.overrides,
        )
        self._flags = RuleSelection(
            select=args.select or None, extend_select=args.extend_select, ignore=args.ignore
        )
        self._force_exclude: bool = args.force_exclude
        # the writer's own check counts nothing: the summary counts what the walk left out
        self._walk_rules = WalkRules(
            lambda path, is_dir: self._resolver.for_path(path, is_dir).excludes(path, is_dir)
        )
        self.excluded: list[tuple[Path, str]] = []
        """Each path ``exclude`` left out, and the pattern (for ``--verbose``)."""
        self._excluded_by: dict[Path, int] = {}
        """Per configuration file, the folders and Python files its ``exclude`` left out."""
        self.strict: bool = args.strict or bool(self._resolver.for_folder(Path.cwd()).strict)
        """``--strict``, else the ``strict`` of the configuration of the current folder."""

    def files(
        self,
        paths: Iterable[Path],
        on_skip: Callable[[Path, str], None],
        skipped_folders: Iterable[Path] = (),
    ) -> Iterator[Path]:
        """The Python files of ``paths`` that the walk and ``exclude`` leave in (the walk never
        enters ``skipped_folders``)."""
        return python_files(
            paths,
            on_skip,
            excluded=self._excluded,
            force_exclude=self._force_exclude,
            skipped_folders=skipped_folders,
        )

    def _excluded(self, path: Path, is_dir: bool) -> bool:
        config = self._resolver.for_path(path, is_dir)
        pattern = config.excluded_by(path, is_dir)
        if pattern is None:
            return False
        self.excluded.append((path, pattern))
        if config.file is not None and (is_dir or path.name.endswith(SUFFIXES)):
            self._excluded_by[config.file] = self._excluded_by.get(config.file, 0) + 1
        return True

    def force_excluded(self, path: Path) -> bool:
        """With ``--force-exclude``: whether ``exclude`` leaves ``path`` out (stdin's name)."""
        if not self._force_exclude:
            return False
        absolute = Path(os.path.abspath(path))
        folders = [parent for parent in absolute.parents if parent != Path(absolute.anchor)]
        return self._excluded(absolute, False) or any(self._excluded(f, True) for f in folders)

    def effects(self, options: Mapping[Path, AnalysisOptions]) -> list[tuple[Path, int, int]]:
        """Per configuration file that turned something off: the checked files in which no
        rule is left on, and the paths its ``exclude`` left out."""
        silenced: dict[Path, int] = {}
        for path, option in options.items():
            file = self.config_for(path).file
            if file is None:  # no file, no rule registry to load (start-up cost)
                continue
            if not any(option.enabled(code) for code in self._resolver.rule_codes):
                silenced[file] = silenced.get(file, 0) + 1
        files = sorted({*silenced, *self._excluded_by})
        return [(f, silenced.get(f, 0), self._excluded_by.get(f, 0)) for f in files]

    def left_out(self, path: Path) -> str | None:
        """Why ``--fix`` must not write ``path`` (a real path): the walk leaves it out, or the
        configuration that would say cannot be read (then nothing says it may be written)."""
        try:
            return self._walk_rules.leaves_out(path)
        except ConfigError as error:
            return f"its configuration cannot be read: {'; '.join(error.lines())}"

    def config_for(self, path: Path) -> ProjectConfig:
        return self._resolver.for_path(path)

    def options_for(self, path: Path) -> AnalysisOptions:
        from evalsubmit.analysis import configured_options

        return configured_options(self.config_for(path), path, [self._flags])

    @staticmethod
    def sdk_notes(options: Iterable[AnalysisOptions], python: Path) -> list[str]:
        """The summary's notes about the SDK, one per version compared: the installed one, or
        each ``sdk-version`` declared by the configurations of the checked files."""
        from evalsubmit.sdk.releases import version_note
        from evalsubmit.workspace.project import Project
        from evalsubmit.workspace.project import installed_sdk as installed_sdk_of

        declared = sorted({o.sdk_version or "" for o in options if o.enabled("ES111")}, key=str)
        notes: list[str] = []
        for version in declared:
            installed = installed_sdk_of(Project(python=python), version or None)
            note = version_note(installed, declared=bool(version))
            if note is not None and note not in notes:
                notes.append(note)
        return notes
