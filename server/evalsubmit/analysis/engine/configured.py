"""The project's configuration file turned into analysis options, with the rule registry.

:mod:`evalsubmit.workspace.config` finds and validates the file but sits below the rule
registry; here the registry's codes check it, and the layers of rule choices are resolved in
one place for the CLI and the server: the file, then the caller's own layer (the editor's
settings, or the command line), then the file's ``per-file-ignores``.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from pathlib import Path

from evalsubmit.analysis.engine.options import DEFAULT_MAX_CHARS, AnalysisOptions
from evalsubmit.analysis.rule_codes import RULE_CODES
from evalsubmit.workspace.config import ConfigResolver, ProjectConfig, RuleSelection, expand
from evalsubmit.workspace.config_merge import NO_OVERRIDES, Overrides

_SHARED: ConfigResolver | None = None


def config_resolver(
    *,
    fixed: Path | None = None,
    isolated: bool = False,
    remember_folders: bool = False,
    overrides: Overrides = NO_OVERRIDES,
) -> ConfigResolver:
    """A resolver validating rule codes against the registry (see :class:`ConfigResolver`)."""
    return ConfigResolver(
        _rule_codes,
        fixed=fixed,
        isolated=isolated,
        remember_folders=remember_folders,
        overrides=overrides,
    )


def project_config(path: Path) -> ProjectConfig:
    """The configuration in effect for ``path``: the nearest configuration file above it, as
    ``evalsubmit check`` and the server read it (``NO_CONFIG`` when there is none). Raises
    :class:`~evalsubmit.workspace.config.ConfigError` when that file is invalid. Its
    ``default_taskset`` is what a submission uses when the call names no ``tasks=``."""
    global _SHARED
    if _SHARED is None:
        _SHARED = config_resolver()
    return _SHARED.for_path(path)


def configured_options(
    config: ProjectConfig,
    path: Path,
    overrides: Iterable[RuleSelection] = (),
    *,
    max_chars: int = DEFAULT_MAX_CHARS,
) -> AnalysisOptions:
    """The options for ``path``: the file's rule selection, then each of ``overrides`` in
    order (a ``select`` there replaces what came before, as ruff's command line does), then
    ``per-file-ignores``. The result names the disabled codes, so it means the same whatever
    prefixes were used to get there."""
    layers = (config.selection, *overrides)
    per_file = config.ignored_for(path)
    return _options(layers, per_file, config.sdk_version, max_chars, config.default_taskset)


@functools.lru_cache(maxsize=256)
def _options(
    layers: tuple[RuleSelection, ...],
    per_file: frozenset[str],
    sdk_version: str | None,
    max_chars: int,
    default_taskset: str | None,
) -> AnalysisOptions:
    # cached: a run over thousands of files meets a handful of distinct combinations
    if not per_file and all(layer == RuleSelection() for layer in layers):
        return AnalysisOptions(  # every rule
            max_chars=max_chars, sdk_version=sdk_version, default_taskset=default_taskset
        )
    codes = _rule_codes()
    enabled = codes
    for layer in layers:
        enabled = layer.apply(enabled, codes)
    enabled -= expand(per_file, codes)
    return AnalysisOptions(
        ignore=codes - enabled,
        max_chars=max_chars,
        sdk_version=sdk_version,
        default_taskset=default_taskset,
    )


def _rule_codes() -> frozenset[str]:
    return RULE_CODES  # not the registry's: it loads every rule and the interpreter
