"""Per process: each checked file's project (one per root and interpreter), its folder's real
path and root found once, and which files can reach the SDK at all."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from evalsubmit.cli.common import project_root, resolved

if TYPE_CHECKING:
    from evalsubmit.analysis import AnalysisOptions
    from evalsubmit.cli.check_analysis import FileResult
    from evalsubmit.workspace.project import Project

PREFILTER = True
"""Skip the files that cannot reach the SDK (tests turn it off to compare)."""

_PROJECTS: dict[tuple[Path, Path], Project] = {}
"""One project per (root, interpreter), reused across the files of a process."""

_FOLDERS: dict[str, tuple[Path, Path]] = {}
"""A folder (absolute, not resolved) -> (its real path, its project root)."""


def start_run() -> None:
    """Forget what an earlier run in this process learnt (the files may have changed since;
    tests call the CLI many times in one process, from different folders)."""
    _PROJECTS.clear()
    _FOLDERS.clear()


def _folder(path: Path) -> tuple[Path, Path] | None:
    """The real folder and project root of a file that is not a link (one per folder)."""
    if path.is_symlink():
        return None
    folder = os.path.abspath(path.parent)
    known = _FOLDERS.get(folder)
    if known is None:
        known = _FOLDERS[folder] = (resolved(path.parent), project_root(path))
    return known


def resolved_file(path: Path) -> Path:
    known = _folder(path)
    return known[0] / path.name if known else resolved(path)


def root_of(path: Path) -> Path:
    known = _folder(path)
    return known[1] if known else project_root(path)


def project_of(path: Path, python: Path) -> Project:
    from evalsubmit.workspace.project import Project

    root = root_of(path)
    project = _PROJECTS.get((root, python))
    if project is None:
        project = _PROJECTS[(root, python)] = Project(root, python=python)
        project.watched = True  # a run sees the files as they were when first read
        # its relevance scan and the analysis's index of importers read every file: once
        project.keep_texts_for_one_run()
    return project


def relevant(files: list[Path], python: Path, max_chars: int) -> Iterator[Path]:
    """The files that may hold a finding of their own, decided from their text
    (:mod:`evalsubmit.workspace.relevance`), each as soon as it is known (not in order)."""
    if not PREFILTER:
        yield from files
        return
    from evalsubmit.workspace.relevance import RelevanceScan

    by_root: dict[Path, list[Path]] = {}
    for path in files:
        by_root.setdefault(root_of(path), []).append(path)
    for group in by_root.values():
        scan = RelevanceScan(project_of(group[0], python), max_chars=max_chars)
        yield from scan.stream(group)


def lines_of(path: Path) -> list[str]:
    """A file's lines, read when a finding lands in a file that was not analysed."""
    from evalsubmit.core.lines import split_lines
    from evalsubmit.core.sourcefile import UnreadableSource, read_source

    try:
        return split_lines(read_source(path).text)
    except UnreadableSource:
        return []


def route_remote_findings(
    results: dict[Path, FileResult], options: dict[Path, AnalysisOptions]
) -> None:
    """A bad value written in one checked file but submitted from another is reported in the
    file that writes it; each file is analysed once (forward), so the check stays linear."""
    if not any(result.remote for result in results.values()):
        return
    from evalsubmit.analysis.engine.analyze import settled
    from evalsubmit.analysis.engine.suppressing import partition

    by_resolved = {resolved_file(path): result for path, result in results.items()}
    for result in list(results.values()):
        for target, finding in result.remote:
            owner = by_resolved.get(target)
            if owner is None:
                continue
            if owner.unread and not owner.lines:
                owner.lines = lines_of(owner.path)
            owned = options[owner.path]
            kept, silenced = partition([finding], owner.lines, owned)
            for found in settled(kept, owned):
                if found not in owner.findings:
                    owner.findings.append(found)
            owner.suppressed += [f for f in silenced if f not in owner.suppressed]
