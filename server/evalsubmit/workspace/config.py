"""The project's configuration file: ``[tool.evalsubmit]`` in ``pyproject.toml``, or the top-level
keys of an ``evalsubmit.toml`` / ``.evalsubmit.toml``. The CLI and the server read the same.

Found like ruff finds its own: the nearest folder above the checked file (the file's own folder
first) holding ``.evalsubmit.toml``, ``evalsubmit.toml`` or a ``pyproject.toml`` *with* a
``[tool.evalsubmit]`` table wins (in that order within one folder); a ``pyproject.toml``
without the table is passed over and the search goes on up to the project root, the nearest
folder holding ``.git`` (the filesystem root outside a repository): a file above the repository
(a shared ``/tmp``, someone else's home) must not silence the project's checks; only
``--config`` names one there. Nothing is merged across files found this way: the nearest
configuration is the whole configuration, unless it says ``extend = "../base.toml"`` (read
first, relative to the file; a cycle is an error), and the command line's overrides replace
the keys they name (:mod:`.config_merge`).

An invalid file is an error naming the file, the key and (found by reading the text, as
``tomllib`` gives no positions) its line, never a silent default. Files are cached by
(path, mtime, size), so a resolver can be asked again at every analysis and see edits.
"""

from __future__ import annotations

import functools
import os
import re
import threading
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.core.records import record
from evalsubmit.workspace.config_errors import PYPROJECT_TABLE, ConfigError, Problem
from evalsubmit.workspace.config_lines import key_of, line_of
from evalsubmit.workspace.config_merge import NO_OVERRIDES, Overrides, merged
from evalsubmit.workspace.globs import GlobSet

if TYPE_CHECKING:
    from evalsubmit.workspace.config_model import ConfigTable

__all__ = [
    "CONFIG_NAMES",
    "NO_CONFIG",
    "PYPROJECT_TABLE",
    "ConfigError",
    "ConfigResolver",
    "Problem",
    "ProjectConfig",
    "RuleSelection",
    "expand",
]

CONFIG_NAMES = (".evalsubmit.toml", "evalsubmit.toml", "pyproject.toml")
"""Looked for in this order in each folder (ruff's order for its own files)."""
MAX_CONFIG_BYTES = 1024 * 1024
MAX_EXTEND_DEPTH = 32


@record
class RuleSelection:
    """One layer of rule choices (the file, then the editor's settings or the command line):
    ``select`` replaces what layers below chose, ``extend_select`` adds, ``ignore`` removes."""

    select: frozenset[str] | None = None
    extend_select: frozenset[str] = frozenset()
    ignore: frozenset[str] = frozenset()

    def apply(self, enabled: frozenset[str], codes: Collection[str]) -> frozenset[str]:
        if self.select is not None:
            enabled = expand(self.select, codes)
        return (enabled | expand(self.extend_select, codes)) - expand(self.ignore, codes)


def expand(prefixes: Iterable[str], codes: Collection[str]) -> frozenset[str]:
    """The codes named by ``prefixes`` (``ES1`` names every ``ES1xx``; ``ALL``, every code)."""
    wanted = tuple(prefixes)
    if "ALL" in wanted:
        return frozenset(codes)
    return frozenset(code for code in codes if code.startswith(wanted))


@record
class ProjectConfig:
    """The configuration in effect for a file. ``file`` is None when no file was found (or
    none is wanted: ``--isolated``); every field then has its default."""

    file: Path | None = None
    root: Path | None = None
    """The folder of ``file``: patterns are relative to it."""
    selection: RuleSelection = RuleSelection()
    exclude: tuple[str, ...] = ()
    """Every pattern: those of ``exclude``, then those of ``extend-exclude``."""
    extend_exclude: tuple[str, ...] = ()
    """The patterns of ``exclude`` that ``extend-exclude`` wrote (its last ones)."""
    per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = ()
    default_taskset: str | None = None
    sdk_version: str | None = None
    strict: bool | None = None
    table: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The table as written (with what it extends merged in): overrides are applied to it."""
    extends: tuple[Path, ...] = ()
    """The files ``extend`` read, nearest first."""
    overridden: Mapping[str, str] = field(default_factory=dict, compare=False)
    """The keys the command line set, and the option that set each (``--config``)."""
    _exclude_spec: GlobSet | None = field(default=None, compare=False, repr=False)
    _per_file_specs: tuple[tuple[bool, GlobSet, frozenset[str]], ...] = field(
        default=(), compare=False, repr=False
    )

    def excludes(self, path: Path, is_dir: bool = False) -> bool:
        """Whether ``exclude``/``extend-exclude`` leave ``path`` out (paths outside the
        configuration's folder are never excluded by it)."""
        if self._exclude_spec is None:
            return False
        relative = self._relative(path)
        if relative is None:
            return False
        return self._exclude_spec.matches(relative + "/" if is_dir else relative)

    def excluded_by(self, path: Path, is_dir: bool = False) -> str | None:
        """The pattern of ``exclude``/``extend-exclude`` that leaves ``path`` out, as
        written; None when :meth:`excludes` is False."""
        if self._exclude_spec is None or (relative := self._relative(path)) is None:
            return None
        glob = self._exclude_spec.decider(relative + "/" if is_dir else relative)
        return glob.pattern if glob is not None and glob.include else None

    def ignored_for(self, path: Path) -> frozenset[str]:
        """The codes (or prefixes) ``per-file-ignores`` turns off in ``path``. A pattern
        written ``!glob`` applies to the files it does *not* match (as in ruff)."""
        return frozenset().union(*(codes for _, codes in self.per_file_ignores_for(path)))

    def per_file_ignores_for(self, path: Path) -> list[tuple[str, frozenset[str]]]:
        """The entries of ``per-file-ignores`` that apply to ``path`` (pattern, codes)."""
        relative = self._relative(path)
        if relative is None:
            return []
        return [
            (pattern, codes)
            for (pattern, codes), (negated, spec, _) in zip(
                self.per_file_ignores, self._per_file_specs, strict=True
            )
            if spec.matches(relative) != negated
        ]

    def _relative(self, path: Path) -> str | None:
        """``path`` relative to the configuration's folder, POSIX-style; None outside it."""
        if self.root is None:
            return None
        absolute = os.path.abspath(path)
        inside = os.path.join(self.root, "")  # the folder with its trailing separator
        if not absolute.startswith(inside):
            return None
        return absolute[len(inside) :].replace(os.sep, "/")


NO_CONFIG = ProjectConfig()


class ConfigResolver:
    """Finds and loads configuration files. ``rule_codes`` (the rule registry, which lives
    above this layer) validates codes. ``fixed`` is one file used for every path
    (``--config``); ``isolated`` uses none. ``remember_folders`` keeps the configuration of
    each folder met for the resolver's life (a CLI run: one look per folder of the tree);
    without it every call looks again (the server, which must see a file appear or change)."""

    def __init__(
        self,
        rule_codes: Collection[str] | Callable[[], Collection[str]],
        *,
        fixed: Path | None = None,
        isolated: bool = False,
        remember_folders: bool = False,
        overrides: Overrides = NO_OVERRIDES,
    ) -> None:
        # A callable is asked once a file is read: a run that meets no configuration file
        # never loads the rule registry for it.
        self._rule_codes = rule_codes
        self._fixed = Path(os.path.abspath(fixed)) if fixed is not None else None
        self._isolated = isolated
        self._remember = remember_folders
        self._folders: dict[str, ProjectConfig] = {}
        self._loaded: dict[Path, tuple[object, ProjectConfig | ConfigError | None]] = {}
        self._lock = threading.Lock()
        self._overrides = overrides
        self._overridden: dict[Path, tuple[ProjectConfig, ProjectConfig | ConfigError]] = {}

    @functools.cached_property
    def rule_codes(self) -> frozenset[str]:
        codes = self._rule_codes
        return frozenset(codes() if callable(codes) else codes)

    def for_path(self, path: Path, is_dir: bool = False) -> ProjectConfig:
        """The configuration governing ``path`` (a file or folder: searched from its parent).
        Raises :class:`ConfigError` when that file is invalid. A repository's root folder
        (``is_dir``) in no other repository has none: its parent's files are above the
        repository, and their ``exclude`` must not leave it out."""
        absolute = os.path.abspath(path)
        parent = os.path.dirname(absolute)
        if is_dir and self._fixed is None and _top_repository(absolute):
            return NO_CONFIG
        return self.for_folder(parent)

    def for_folder(self, path: str | Path) -> ProjectConfig:
        """The configuration of files in the folder ``path`` (the nearest one, from there up)."""
        if self._isolated:
            return self._without_file()
        if self._fixed is not None:
            return self.load(self._fixed, required=True) or self._without_file()
        # strings, not Paths: the walk asks for every entry of the tree
        directory = os.path.abspath(path)
        visited: list[str] = []
        found = NO_CONFIG
        while True:
            known = self._folders.get(directory)
            if known is not None:  # a folder met before, in remember mode
                found = known
                break
            visited.append(directory)
            loaded = self._in_folder(Path(directory))
            if loaded is not None:
                found = loaded
                break
            parent = os.path.dirname(directory)
            if parent == directory or os.path.exists(os.path.join(directory, ".git")):
                break
            directory = parent
        if found is NO_CONFIG:
            found = self._without_file()
        if self._remember:
            self._folders.update(dict.fromkeys(visited, found))
        return found

    def _without_file(self) -> ProjectConfig:
        """The configuration where no file applies: the defaults, under the command line's
        overrides (their patterns relative to the current folder)."""
        if not self._overrides:
            return NO_CONFIG
        cached = self._overridden.get(Path())
        if cached is None:
            cwd = Path.cwd()
            applied = _validated(cwd / "--config", "", self._overrides.apply({}), self.rule_codes)
            if isinstance(applied, ProjectConfig):
                applied = _replace(applied, file=None, overridden=self._overrides.origins)
            cached = (NO_CONFIG, applied)
            self._overridden[Path()] = cached
        if isinstance(cached[1], ConfigError):
            raise cached[1]
        return cached[1]

    def _with_overrides(self, config: ProjectConfig) -> ProjectConfig:
        if not self._overrides or config.file is None:
            return config
        cached = self._overridden.get(config.file)
        if cached is None or cached[0] is not config:
            table = self._overrides.apply(config.table)
            applied = _validated(config.file, "", table, self.rule_codes, config.extends)
            if isinstance(applied, ProjectConfig):
                applied = _replace(applied, overridden=self._overrides.origins)
            cached = (config, applied)
            with self._lock:
                self._overridden[config.file] = cached
        if isinstance(cached[1], ConfigError):
            raise cached[1]
        return cached[1]

    def _in_folder(self, directory: Path) -> ProjectConfig | None:
        """The configuration file of this very folder, if it has one."""
        for name in CONFIG_NAMES:
            candidate = directory / name
            if os.path.isfile(candidate):
                loaded = self.load(candidate)
                if loaded is not None:
                    return loaded
        return None

    def load(self, file: Path, *, required: bool = False) -> ProjectConfig | None:
        """The configuration of one file; None for a ``pyproject.toml`` without the table
        (an error instead when ``required``: ``--config`` names a file that must have one)."""
        file = Path(os.path.abspath(file))
        try:
            info = os.stat(file)
        except OSError as error:
            raise ConfigError(file, [Problem("", f"cannot read it ({error.strerror})")]) from None
        key = (info.st_mtime_ns, info.st_size)
        with self._lock:
            cached = self._loaded.get(file)
        # the files it extends count too: an edit of the base is seen (the server's case)
        if cached is None or cached[0] != (key, _stamps(_read_also(file, cached[1]))):
            result = _read(file, lambda: self.rule_codes)
            cached = ((key, _stamps(_read_also(file, result))), result)
            with self._lock:
                self._loaded[file] = cached
        result = cached[1]
        if isinstance(result, ConfigError):
            raise result
        if result is None and required:
            raise ConfigError(file, [Problem("", f"it has no {PYPROJECT_TABLE} table")])
        return self._with_overrides(result) if result is not None else None


def _read_also(file: Path, result: ProjectConfig | ConfigError | None) -> tuple[Path, ...]:
    """The other files ``result`` was read from: those it extends, or the one at fault."""
    if isinstance(result, ProjectConfig):
        return result.extends
    if isinstance(result, ConfigError) and result.file != file:
        return (result.file,)
    return ()


def _stamps(files: tuple[Path, ...]) -> tuple[tuple[int, int], ...]:
    stamps = []
    for file in files:
        try:
            info = os.stat(file)
        except OSError:
            stamps.append((-1, -1))
            continue
        stamps.append((info.st_mtime_ns, info.st_size))
    return tuple(stamps)


def _top_repository(folder: str) -> bool:
    """``folder`` holds ``.git`` and no folder above it does."""
    if not os.path.exists(os.path.join(folder, ".git")):
        return False
    while (parent := os.path.dirname(folder)) != folder:
        if os.path.exists(os.path.join(parent, ".git")):
            return False
        folder = parent
    return True


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
    # pydantic only now: a run that finds no configuration never imports it
    from evalsubmit.workspace.config_model import validate_table

    codes = rule_codes() if callable(rule_codes) else rule_codes  # only a table has codes
    model, problems = validate_table(table, codes)
    if model is None:
        placed = [Problem(key_of(loc), m, line_of(text, loc, value)) for loc, m, value in problems]
        placed.sort(key=lambda problem: problem.line or len(text))  # in the file's order
        return ConfigError(file, placed)
    return _config(file, model, dict(table), extends)


def _replace(config: ProjectConfig, **changes: Any) -> ProjectConfig:
    import dataclasses

    return dataclasses.replace(config, **changes)


def _config(
    file: Path, model: ConfigTable, table: dict[str, Any], extends: tuple[Path, ...]
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
