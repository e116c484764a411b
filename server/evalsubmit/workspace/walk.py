"""Which files ``evalsubmit check`` reads: Python files, minus VCS, virtualenvs and ignores."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pathspec

SKIPPED_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        "__pycache__",
        "node_modules",
        ".tox",
        ".nox",
        ".mypy_cache",
        ".ruff_cache",
        ".pytest_cache",
        "site-packages",
    }
)


def python_files(paths: Iterable[Path]) -> Iterator[Path]:
    """Files named explicitly are always checked; folders are walked recursively."""
    seen: set[Path] = set()
    for path in paths:
        if path.is_file():
            if path.resolve() not in seen:
                seen.add(path.resolve())
                yield path
            continue
        for found in _walk(path, _ignore_spec(path)):
            if found.resolve() not in seen:
                seen.add(found.resolve())
                yield found


def _walk(folder: Path, spec: tuple[Path, pathspec.PathSpec[Any]] | None) -> Iterator[Path]:
    try:
        entries = sorted(folder.iterdir())
    except OSError:
        return
    for entry in entries:
        if spec and spec[1].match_file(_relative(entry, spec[0])):
            continue
        if entry.is_dir():
            if entry.name in SKIPPED_DIRS or _is_virtualenv(entry) or entry.is_symlink():
                continue
            local = _ignore_spec(entry, inherit=spec)
            yield from _walk(entry, local)
        elif entry.suffix in {".py", ".pyi"} and entry.is_file():
            yield entry


def _relative(entry: Path, root: Path) -> str:
    try:
        text = entry.resolve().relative_to(root).as_posix()
    except ValueError:
        return entry.name
    return text + "/" if entry.is_dir() else text


def _is_virtualenv(folder: Path) -> bool:
    return (folder / "pyvenv.cfg").exists() or (folder / "bin" / "activate").exists()


def _ignore_spec(
    folder: Path, inherit: tuple[Path, pathspec.PathSpec[Any]] | None = None
) -> tuple[Path, pathspec.PathSpec[Any]] | None:
    """The nearest .gitignore at or above ``folder`` (one level of rules, as most repos use)."""
    gitignore = folder / ".gitignore"
    if gitignore.is_file():
        try:
            lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:
            return inherit
        return folder.resolve(), pathspec.PathSpec.from_lines("gitignore", lines)
    if inherit is not None:
        return inherit
    for parent in folder.resolve().parents:
        if (parent / ".gitignore").is_file():
            return _ignore_spec(parent)
        if (parent / ".git").exists():
            break
    return None
