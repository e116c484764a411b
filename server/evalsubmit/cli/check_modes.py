"""The ways ``evalsubmit check`` runs besides one plain check: ``--show-files`` (the files it
would check), ``--watch`` (check again on every change), ``--verbose`` (what it did and why, on
stderr), and a ``--stdin-filename`` that ``--force-exclude`` leaves out (nothing checked,
exit 0, as ruff)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from evalsubmit.cli.common import EXIT_CLEAN, EXIT_ERROR
from evalsubmit.cli.output import shown

if TYPE_CHECKING:
    from evalsubmit.cli.check_flags import CheckFlags
    from evalsubmit.cli.configured import CheckConfiguration
    from evalsubmit.cli.stdin import StdinSource

WATCH_INTERVAL = 0.3
"""Seconds between two looks at the files' modification times (no watcher dependency: a
poll of a project's few hundred files costs well under a millisecond each)."""
WATCHED_NAMES = (".py", ".pyi", ".ipynb", ".toml", ".gitignore")
NOT_WATCHED = frozenset({".git", ".venv", "venv", "__pycache__", "node_modules", ".cache"})


def show_files(args: argparse.Namespace) -> int:
    """The files ``check`` would check, sorted, one absolute path per line (ruff's listing)."""
    from evalsubmit.cli.configured import CheckConfiguration, ConfigError

    missing = [str(p) for p in args.paths if not os.path.lexists(p)]
    if missing:
        print(
            f"evalsubmit: no such file or directory: {shown(', '.join(missing))}", file=sys.stderr
        )
        return EXIT_ERROR
    skipped: list[tuple[Path, str]] = []
    try:
        configuration = CheckConfiguration(args)
        files = list(configuration.files(args.paths, lambda p, why: skipped.append((p, why))))
    except ConfigError as error:
        print("\n".join(f"evalsubmit: {shown(line)}" for line in error.lines()), file=sys.stderr)
        return EXIT_ERROR
    for listed in sorted({os.path.abspath(path) for path in files}):
        print(shown(listed))
    for path, why in skipped:
        print(f"evalsubmit: warning: {shown(path)}: {shown(why)}", file=sys.stderr)
    return EXIT_CLEAN


def watch(args: argparse.Namespace, check: Callable[[], int]) -> int:
    """Check, then check again each time a watched file under the paths, or a configuration
    file that governs them (wherever it lies), changes, until interrupted (Ctrl-C or SIGTERM:
    exit 0)."""

    def stop(_signal: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    configurations = _configuration_files(args)
    try:
        print("Starting evalsubmit in watch mode...", file=sys.stderr, flush=True)
        seen = snapshot(args.paths, configurations())
        while True:
            check()
            sys.stdout.flush()
            print("Watching for file changes.", file=sys.stderr, flush=True)
            while (now := snapshot(args.paths, configurations())) == seen:
                time.sleep(WATCH_INTERVAL)
            seen = now
            print("File change detected...", file=sys.stderr, flush=True)
    except KeyboardInterrupt:
        return EXIT_CLEAN


def _configuration_files(args: argparse.Namespace) -> Callable[[], list[str]]:
    """What lists the configuration files that may govern the paths from outside them:
    ``--config``'s file, every place above a path where one would be found (so that creating
    one counts as a change), and the files the one in effect extends."""
    from evalsubmit.analysis import config_resolver
    from evalsubmit.workspace.config import CONFIG_NAMES, ConfigError

    resolver = config_resolver(fixed=args.config, isolated=args.isolated, overrides=args.overrides)
    above = {
        os.path.join(folder, name)
        for path in args.paths
        for folder in map(str, Path(os.path.abspath(path)).parents)
        for name in CONFIG_NAMES
    }
    fixed = [os.path.abspath(args.config)] if args.config is not None else []

    def listed() -> list[str]:
        extended: list[str] = []
        for path in args.paths:
            try:
                config = resolver.for_path(Path(path), os.path.isdir(path))
            except ConfigError as error:  # the check says why; its file is still watched
                extended.append(str(error.file))
                continue
            extended.extend(map(str, config.extends))
        return sorted({*fixed, *above, *extended})

    return listed


def snapshot(paths: Iterable[Path], files: Iterable[str] = ()) -> dict[str, tuple[int, int]]:
    """Each watched file under ``paths`` (and each path itself), and each of ``files`` that
    exists, with its mtime and size."""
    found: dict[str, tuple[int, int]] = {}

    def note(path: str) -> None:
        try:
            info = os.stat(path)
        except OSError:
            return
        found[path] = (info.st_mtime_ns, info.st_size)

    for file in files:
        note(file)
    for path in map(str, paths):
        note(path)
        if not os.path.isdir(path):
            continue
        for folder, folders, names in os.walk(path):
            folders[:] = [f for f in folders if f not in NOT_WATCHED]
            for name in names:
                if name.endswith(WATCHED_NAMES):
                    note(os.path.join(folder, name))
    return found


def excluded_stdin(stdin: StdinSource, flags: CheckFlags) -> int:
    """``--force-exclude`` leaves the stdin's file name out: nothing is checked (exit 0); with
    ``--fix`` the source goes back to stdout unchanged, as ruff does."""
    if flags.fix is not None and not flags.fix.diff:
        from evalsubmit.cli.stdin import write_source

        write_source(stdin.text, stdin.encoding)
    if not flags.silent:
        print(
            f"evalsubmit: warning: {shown(stdin.path)} is excluded (--force-exclude): not checked",
            file=sys.stderr,
        )
    return EXIT_CLEAN


def explain(
    configuration: CheckConfiguration,
    files: list[Path],
    results: Mapping[Path, Any],
    skipped: list[tuple[Path, str]],
    elapsed: float,
) -> None:
    """``--verbose``: the configuration files used, what ``exclude`` left out, each file and
    whether it was analysed (or why not), what was skipped and why, the time taken."""

    def say(line: str) -> None:
        print(f"[evalsubmit] {shown(line)}", file=sys.stderr)

    configs: dict[Path, None] = {}
    for path in files:
        config = configuration.config_for(path)
        if config.file is not None:
            configs.setdefault(config.file)
    for file in configs:
        extends = configuration.config_for(file).extends
        extended = f" (extends {', '.join(map(str, extends))})" if extends else ""
        say(f"configuration: {file}{extended}")
    for path, pattern in configuration.excluded:
        say(f"excluded: {path} (exclude pattern {pattern!r})")
    for path in files:
        result = results.get(path)
        if result is None:
            continue
        if getattr(result, "unread", False):
            say(f"not analysed: {path}: it imports nothing that can reach the SDK")
        elif not getattr(result, "skipped", None) and not getattr(result, "error", None):
            say(f"checked: {path}")
    for path, why in skipped:
        say(f"skipped: {path}: {why}")
    analysed = sum(1 for r in results.values() if not getattr(r, "unread", False))
    say(f"{len(files)} files found, {analysed} analysed, in {elapsed:.3f}s")
