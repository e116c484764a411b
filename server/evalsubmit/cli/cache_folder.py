"""The result cache's folder on disk (:mod:`.result_cache`): creating it and its versioned
folder safely (real folders, never links), reading and writing entries (atomically, without
following a link, within a size limit) and pruning what is provably ours and no longer used."""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
import time
from pathlib import Path

import evalsubmit
from evalsubmit.cli import cache_codec as codec
from evalsubmit.core.sourcefile import UnreadableSource, read_regular_file
from evalsubmit.workspace.walk import CACHEDIR_SIGNATURE

CACHE_FORMAT = 2
"""Raised whenever what an entry holds or means changes: older entries are then not read."""
TAG = (
    f"{CACHEDIR_SIGNATURE}\n"
    "# This file is a cache directory tag created by evalsubmit.\n"
    "# For information about cache directory tags, see:\n"
    "#\thttps://bford.info/cachedir/\n"
)
GITIGNORE = "# Automatically created by evalsubmit.\n*\n"
MAX_ENTRY_BYTES = 32 * 1024 * 1024
"""A larger entry is neither read nor written (a file's findings are far smaller)."""
OWNER = "owner"
"""A versioned folder's mark that this user's evalsubmit made it (``codec.owner_code``)."""
PRUNE_EVERY_S = 24 * 3600
_PRUNED = "last-pruned"
_TEMPORARY = ".tmp-"
_ENTRY_NAME = re.compile(r"[0-9a-f]{32}\.json")
_VERSIONED_NAME = re.compile(r"v[0-9]+-[^/\\]+")
STALE_TEMPORARY_S = 3600
"""A temporary file this old was left by a run that was killed while writing it."""


def versioned(root: Path) -> Path:
    """The folder of this cache format and version inside a cache folder."""
    return root / f"v{CACHE_FORMAT}-{evalsubmit.__version__}"


def prepare(root: Path, key: bytes) -> Path:
    """Create the cache folder (tagged, ignored by git) and its versioned folder, marked as
    ours; raises ``OSError`` when it cannot be written or either folder is not a real one."""
    _real_folder(root)
    for name, text in ((".gitignore", GITIGNORE), ("CACHEDIR.TAG", TAG)):
        if not os.path.lexists(root / name):
            write_atomically(root / name, text.encode("ascii"))
    folder = versioned(root)
    _real_folder(folder)
    mark = codec.owner_code(key, folder)
    if read_entry(folder / OWNER, codec.CODE_CHARS) != mark:
        write_atomically(folder / OWNER, mark)
    return folder


def _real_folder(path: Path) -> None:
    """Create ``path`` unless it exists; raises ``OSError`` unless it is a folder, not a link."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.mkdir(path)
    except FileExistsError:
        pass
    mode = os.lstat(path).st_mode
    if stat.S_ISLNK(mode):
        raise OSError(errno.ELOOP, "a link (the cache never follows one)")
    if not stat.S_ISDIR(mode):
        raise OSError(errno.ENOTDIR, os.strerror(errno.ENOTDIR))


def write_atomically(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file renamed over it."""
    import tempfile  # here: a run that writes nothing does not load it

    handle, temporary = tempfile.mkstemp(prefix=_TEMPORARY, dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def read_entry(path: Path, max_bytes: int | None = None) -> bytes | None:
    """A file's bytes (None: missing, unreadable, a link, not a regular file or larger than
    ``max_bytes``, by default :data:`MAX_ENTRY_BYTES`: a miss)."""
    limit = MAX_ENTRY_BYTES if max_bytes is None else max_bytes
    try:
        return read_regular_file(path, max_bytes=limit, follow_link=False)
    except UnreadableSource:
        return None


def prune_when_due(folder: Path, key: bytes) -> None:
    """Remove the entries of source files that no longer exist, the temporary files of killed
    runs and the folders of other versions, at most once per :data:`PRUNE_EVERY_S` (the time
    of the last prune is that of a marker file, replaced first so that concurrent runs do not
    both prune). A file another run removed first is skipped."""
    marker = folder / _PRUNED
    now = time.time()
    try:
        if now - os.lstat(marker).st_mtime < PRUNE_EVERY_S:
            return
    except FileNotFoundError:
        pass
    except OSError:
        return
    try:
        write_atomically(marker, b"")
        entries = list(os.scandir(folder))
    except OSError:
        return
    for entry in entries:
        with contextlib.suppress(OSError):
            if _stale_temporary(entry, now) or _entry_of_a_gone_file(entry, folder, key):
                os.unlink(entry.path)
    _prune_other_versions(folder, key, now)


def _prune_other_versions(current: Path, key: bytes, now: float) -> None:
    """Remove what we wrote in the versioned folders of other versions that we made."""
    try:
        siblings = list(os.scandir(current.parent))
    except OSError:
        return
    for sibling in siblings:
        if sibling.name == current.name or not _VERSIONED_NAME.fullmatch(sibling.name):
            continue
        with contextlib.suppress(OSError):
            folder = Path(sibling.path)
            if not sibling.is_dir(follow_symlinks=False):
                continue  # a link is never followed
            if read_entry(folder / OWNER, codec.CODE_CHARS) != codec.owner_code(key, folder):
                continue  # not made by this user's evalsubmit
            for entry in list(os.scandir(folder)):
                if _ours(entry, folder, key, now):
                    os.unlink(entry.path)
            if os.listdir(folder) == [OWNER]:  # anything else there is left, and the folder
                os.unlink(folder / OWNER)
                os.rmdir(folder)


def _ours(entry: os.DirEntry[str], folder: Path, key: bytes, now: float) -> bool:
    if entry.name == _PRUNED:
        info = entry.stat(follow_symlinks=False)
        return stat.S_ISREG(info.st_mode) and info.st_size == 0
    return _stale_temporary(entry, now) or _verified_entry(entry, folder, key) is not None


def _stale_temporary(entry: os.DirEntry[str], now: float) -> bool:
    """A temporary file of this user's, older than a run (its content cannot be told)."""
    if not entry.name.startswith(_TEMPORARY):
        return False
    info = entry.stat(follow_symlinks=False)
    mine = not hasattr(os, "geteuid") or info.st_uid == os.geteuid()
    return stat.S_ISREG(info.st_mode) and mine and now - info.st_mtime > STALE_TEMPORARY_S


def _entry_of_a_gone_file(entry: os.DirEntry[str], folder: Path, key: bytes) -> bool:
    body = _verified_entry(entry, folder, key)
    if body is None:
        return False  # not ours: kept (it is rewritten when its name's file is checked)
    source = codec.source_of(body)
    return source is None or not os.path.exists(source)


def _verified_entry(entry: os.DirEntry[str], folder: Path, key: bytes) -> bytes | None:
    """The body of an entry this user's evalsubmit wrote in ``folder`` (None: not one)."""
    if not _ENTRY_NAME.fullmatch(entry.name):
        return None
    data = read_entry(Path(entry.path))
    return codec.verified(key, folder, entry.name, data) if data is not None else None
