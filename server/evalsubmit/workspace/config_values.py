"""The configuration in effect for a file (:class:`ProjectConfig`: its rule choices,
patterns and options, as :mod:`.config` resolves and :mod:`.config_read` reads them) and the
rule selection of one layer of choices (:class:`RuleSelection`)."""

from __future__ import annotations

import os
from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import Any, Final

from evalsubmit.core.records import Record
from evalsubmit.workspace.globs import GlobSet


class RuleSelection(Record):
    """One layer of rule choices (the file, then the editor's settings or the command line):
    ``select`` replaces what layers below chose, ``extend_select`` adds, ``ignore`` removes."""

    __slots__ = ("extend_select", "ignore", "select")
    select: Final[frozenset[str] | None]
    extend_select: Final[frozenset[str]]
    ignore: Final[frozenset[str]]

    def __init__(
        self,
        select: frozenset[str] | None = None,
        extend_select: frozenset[str] = frozenset(),
        ignore: frozenset[str] = frozenset(),
    ) -> None:
        self.select = select
        self.extend_select = extend_select
        self.ignore = ignore

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


NO_SELECTION = RuleSelection()
"""The default of a configuration's selection (a record: shared, as a dataclass default is)."""

_COMPARED = (
    "file",
    "root",
    "selection",
    "exclude",
    "extend_exclude",
    "per_file_ignores",
    "default_taskset",
    "sdk_version",
    "strict",
    "extends",
)


class ProjectConfig(Record, compared=_COMPARED, shown=(*_COMPARED, "overridden")):
    """The configuration in effect for a file. ``file`` is None when no file was found (or
    none is wanted: ``--isolated``); every field then has its default. Compared by what it
    chose (not ``table``, ``overridden`` or the compiled patterns)."""

    __slots__ = (
        "_exclude_spec",
        "_per_file_specs",
        "default_taskset",
        "exclude",
        "extend_exclude",
        "extends",
        "file",
        "overridden",
        "per_file_ignores",
        "root",
        "sdk_version",
        "selection",
        "strict",
        "table",
    )
    file: Final[Path | None]
    root: Final[Path | None]
    """The folder of ``file``: patterns are relative to it."""
    selection: Final[RuleSelection]
    exclude: Final[tuple[str, ...]]
    """Every pattern: those of ``exclude``, then those of ``extend-exclude``."""
    extend_exclude: Final[tuple[str, ...]]
    """The patterns of ``exclude`` that ``extend-exclude`` wrote (its last ones)."""
    per_file_ignores: Final[tuple[tuple[str, frozenset[str]], ...]]
    default_taskset: Final[str | None]
    sdk_version: Final[str | None]
    strict: Final[bool | None]
    table: Final[Mapping[str, Any]]
    """The table as written (with what it extends merged in): overrides are applied to it."""
    extends: Final[tuple[Path, ...]]
    """The files ``extend`` read, nearest first."""
    overridden: Final[Mapping[str, str]]
    """The keys the command line set, and the option that set each (``--config``)."""
    _exclude_spec: Final[GlobSet | None]
    _per_file_specs: Final[tuple[tuple[bool, GlobSet, frozenset[str]], ...]]

    def __init__(
        self,
        file: Path | None = None,
        root: Path | None = None,
        selection: RuleSelection = NO_SELECTION,
        exclude: tuple[str, ...] = (),
        extend_exclude: tuple[str, ...] = (),
        per_file_ignores: tuple[tuple[str, frozenset[str]], ...] = (),
        default_taskset: str | None = None,
        sdk_version: str | None = None,
        strict: bool | None = None,
        table: Mapping[str, Any] | None = None,
        extends: tuple[Path, ...] = (),
        overridden: Mapping[str, str] | None = None,
        _exclude_spec: GlobSet | None = None,
        _per_file_specs: tuple[tuple[bool, GlobSet, frozenset[str]], ...] = (),
    ) -> None:
        self.file = file
        self.root = root
        self.selection = selection
        self.exclude = exclude
        self.extend_exclude = extend_exclude
        self.per_file_ignores = per_file_ignores
        self.default_taskset = default_taskset
        self.sdk_version = sdk_version
        self.strict = strict
        self.table = {} if table is None else table
        self.extends = extends
        self.overridden = {} if overridden is None else overridden
        self._exclude_spec = _exclude_spec
        self._per_file_specs = _per_file_specs

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
