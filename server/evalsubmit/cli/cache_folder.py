"""Where the result cache lives and how its files are written, as ruff's ``.ruff_cache``.

``.evalsubmit_cache/`` at the project root (or ``--cache-dir``/``$EVALSUBMIT_CACHE_DIR``)
holds a ``.gitignore`` (``*``: git never sees it), a ``CACHEDIR.TAG`` (backup tools skip it)
and one folder per cache format and evalsubmit version, in which each checked source file has
one entry, named by its real path: a new result overwrites the old one, so the cache grows with
the number of files, not of runs. Entries of files that no longer exist are removed at most
once a day.

Every entry is written to a temporary file in the same folder and renamed over the old one
(atomic on POSIX and Windows): concurrent runs and worker processes never see half an entry,
and the last writer wins. A folder that cannot be written disables writing for the run.
"""

from __future__ import annotations

import contextlib
import os
import time
from pathlib import Path

import evalsubmit

FOLDER_NAME = ".evalsubmit_cache"
CACHE_FORMAT = 1
"""Raised whenever what an entry holds or means changes: older entries are then not read."""
TAG = (
    "Signature: 8a477f597d28d172789f06886806bc55\n"
    "# This file is a cache directory tag created by evalsubmit.\n"
    "# For information about cache directory tags, see:\n"
    "#\thttps://bford.info/cachedir/\n"
)
GITIGNORE = "# Automatically created by evalsubmit.\n*\n"
PRUNE_EVERY_S = 24 * 3600
_PRUNED = "last-pruned"
_TEMPORARY = ".tmp-"
STALE_TEMPORARY_S = 3600
"""A temporary file this old was left by a run that was killed while writing it."""


def versioned(root: Path) -> Path:
    """The folder of this cache format and version inside a cache folder."""
    return root / f"v{CACHE_FORMAT}-{evalsubmit.__version__}"


def entry_file(folder: Path, digest: str) -> Path:
    return folder / f"{digest}.json"


def prepare(root: Path) -> Path:
    """Create the cache folder (tagged, ignored by git) and its versioned folder; raises
    ``OSError`` when it cannot be written."""
    folder = versioned(root)
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in ((".gitignore", GITIGNORE), ("CACHEDIR.TAG", TAG)):
        if not (root / name).exists():
            write_atomically(root / name, text)
    return folder


def write_atomically(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file renamed over it."""
    import tempfile  # here: a run that writes nothing does not load it

    handle, temporary = tempfile.mkstemp(prefix=_TEMPORARY, dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="ascii") as stream:
            stream.write(text)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_entry(path: Path) -> str | None:
    """An entry's text (None: missing or unreadable, which is a miss)."""
    try:
        with open(path, encoding="ascii") as stream:
            return stream.read()
    except (OSError, ValueError):
        return None


def prune_when_due(folder: Path) -> None:
    """Remove the entries of source files that no longer exist (and corrupt ones), and the
    temporary files of killed runs, at most once per :data:`PRUNE_EVERY_S` (the time of the
    last prune is that of a marker file, touched first so that concurrent runs do not both
    prune). A file another run removed first is skipped."""
    marker = folder / _PRUNED
    now = time.time()
    try:
        if now - marker.stat().st_mtime < PRUNE_EVERY_S:
            return
    except FileNotFoundError:
        pass
    except OSError:
        return
    try:
        marker.touch()
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        try:
            if entry.name.startswith(_TEMPORARY):
                if now - entry.stat().st_mtime > STALE_TEMPORARY_S:
                    os.unlink(entry.path)
            elif entry.name.endswith(".json"):
                source = source_of(read_entry(Path(entry.path)))
                if source is None or not os.path.exists(source):
                    os.unlink(entry.path)
        except OSError:
            continue


def source_of(text: str | None) -> str | None:
    """The source file an entry is about (None: not an entry this version reads)."""
    import json

    try:
        data = json.loads(text) if text is not None else None
        source = data["key"]["path"] if isinstance(data, dict) else None
    except (ValueError, KeyError, TypeError):
        return None
    return source if isinstance(source, str) else None
