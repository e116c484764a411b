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
``tomllib`` gives no positions) its line, never a silent default (:mod:`.config_read` reads a
file; :mod:`.config_values` is what it means). Files are cached by (path, mtime, size), so a
resolver can be asked again at every analysis and see edits.
"""

from __future__ import annotations

import functools
import os
import threading
from collections.abc import Callable, Collection
from pathlib import Path

from evalsubmit.workspace.config_errors import PYPROJECT_TABLE, ConfigError, Problem
from evalsubmit.workspace.config_merge import NO_OVERRIDES, Overrides
from evalsubmit.workspace.config_read import _read, _replace, _validated
from evalsubmit.workspace.config_values import NO_CONFIG, ProjectConfig, RuleSelection, expand

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
