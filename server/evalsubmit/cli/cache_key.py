"""The secret key that authenticates the result cache's entries, and the codes made with it.

The cache folder lies in the project, so anything in it may have come with the repository (an
entry committed with ``git add -f``, a copied folder). An entry is used only when its code
verifies: keyed BLAKE2b (a MAC by design, RFC 7693) over the entry's bytes, its name and the
absolute path of the folder it is in. Only this user's evalsubmit holds the key, so an edited
entry, an entry from another machine or CI container, or one copied from another folder,
never verifies.

The key is kept outside every project: ``$XDG_CACHE_HOME/evalsubmit/`` (else
``~/.cache/evalsubmit/``), a folder created 0700, the key file 0600. It is created on first use
by one process alone: written to a temporary file, then linked to its name, which fails when
another run linked its own first (that one is then read). It is read once per run.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path

from evalsubmit.core.blake import blake2b, compare_digest
from evalsubmit.core.sourcefile import UnreadableSource, read_regular_file

KEY_BYTES = 32
KEY_FILE = "result-cache.key"
CODE_CHARS = 2 * KEY_BYTES
"""The length of a code, in hex digits."""
_ENTRY = b"evalsubmit-entry"
_OWNER = b"evalsubmit-owner"
"""Each kind of code is personalised (BLAKE2b's ``person``): one never verifies as another."""


class NoKey(Exception):
    """The key cannot be read or created: nothing is cached this run."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


def key_folder() -> Path:
    """The user's own cache folder of evalsubmit (XDG's rule: a relative value is ignored)."""
    configured = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(configured) if os.path.isabs(configured) else Path.home() / ".cache"
    return base / "evalsubmit"


def load_key() -> bytes:
    """This user's key, created on first use; raises :class:`NoKey`."""
    folder = key_folder()
    path = folder / KEY_FILE
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileExistsError):
            os.mkdir(folder, 0o700)
        if not os.path.lexists(path):
            _create(path)
    except OSError as error:
        raise NoKey(folder, error.strerror or type(error).__name__) from None
    return _read(path)


def _create(path: Path) -> None:
    import tempfile

    handle, temporary = tempfile.mkstemp(prefix=".tmp-", dir=path.parent)  # O_EXCL, 0600
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(os.urandom(KEY_BYTES))
            stream.flush()
            os.fsync(stream.fileno())
        with contextlib.suppress(FileExistsError):  # another run's came first: it is used
            os.link(temporary, path)  # (a link never replaces a file, as a rename would)
    finally:
        os.unlink(temporary)


def _read(path: Path) -> bytes:
    try:
        key = read_regular_file(path, max_bytes=KEY_BYTES, follow_link=False)
        info = os.lstat(path)
    except (UnreadableSource, OSError) as error:
        raise NoKey(path, getattr(error, "reason", None) or str(error)) from None
    if hasattr(os, "geteuid") and (info.st_uid != os.geteuid() or info.st_mode & 0o077):
        mode = stat.filemode(info.st_mode)
        raise NoKey(path, f"not this user's private file ({mode}); remove it to make a new key")
    if len(key) != KEY_BYTES:
        raise NoKey(path, f"{os.strerror(errno.EINVAL)}: remove it to make a new key")
    return key


def entry_code(key: bytes, folder: Path, name: str, body: bytes) -> bytes:
    """The code of an entry's ``body``, stored as ``name`` in ``folder`` (absolute)."""
    mac = blake2b(key=key, digest_size=KEY_BYTES, person=_ENTRY)
    mac.update(os.fsencode(folder) + b"\0" + name.encode("utf-8", "surrogateescape") + b"\0")
    mac.update(body)
    return mac.hexdigest().encode("ascii")


def owner_code(key: bytes, folder: Path) -> bytes:
    """The mark that this user's evalsubmit made ``folder`` (absolute) as a cache folder."""
    mac = blake2b(os.fsencode(folder), key=key, digest_size=KEY_BYTES, person=_OWNER)
    return mac.hexdigest().encode("ascii")


def signed(key: bytes, folder: Path, name: str, body: bytes) -> bytes:
    """An entry as written: its code, a line end, its body."""
    return entry_code(key, folder, name, body) + b"\n" + body


def verified(key: bytes, folder: Path, name: str, data: bytes) -> bytes | None:
    """The body of an entry as read (None: its code does not verify)."""
    code, separator = data[:CODE_CHARS], data[CODE_CHARS : CODE_CHARS + 1]
    if separator != b"\n":
        return None
    body = data[CODE_CHARS + 1 :]
    return body if compare_digest(code, entry_code(key, folder, name, body)) else None
