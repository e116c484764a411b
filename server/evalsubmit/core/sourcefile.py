"""Reading a Python source file from disk the way Python does, and only what can be read safely.

* Only regular files: a FIFO would block the reader forever, ``/dev/zero`` never ends. The file
  is opened without blocking (``O_NONBLOCK``: opening a FIFO does not wait for a writer) and
  checked with ``fstat`` on the open descriptor, so a swap in between cannot fool the check.
* Bounded: at most ``max_bytes`` are read; a larger file is refused with its size.
* Decoded like Python (``tokenize.detect_encoding``): a UTF-8 BOM is dropped, a PEP 263 coding
  cookie (``# -*- coding: latin-1 -*-``) is honoured, everything else is UTF-8. Bytes that do not
  decode become U+FFFD, so one bad byte never hides the rest of the file. Line ends are kept as
  they are (positions then match what an editor shows).
* Refused where Python refuses to run the file: a UTF-16 or UTF-32 byte order mark, a NUL
  byte, a coding cookie naming an encoding that is not ASCII-compatible. Read anyway, such a
  file's text would be noise with no import in it: a false "All checks passed".

Standard library only.
"""

from __future__ import annotations

import codecs
import io
import os
import re
import stat
import tokenize
from pathlib import Path
from typing import Final

from evalsubmit.core.records import Record

DEFAULT_MAX_BYTES = 2_000_000
_COOKIE = rb"(?m)^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+"
"""PEP 263's coding cookie (``tokenize``'s own pattern, on bytes), compiled when a file fails to
decode."""
_READ_CHUNK = 1 << 16
_WIDE_BOMS = (  # UTF-32 first: its little-endian mark starts with UTF-16's
    (codecs.BOM_UTF32_LE, "UTF-32"),
    (codecs.BOM_UTF32_BE, "UTF-32"),
    (codecs.BOM_UTF16_LE, "UTF-16"),
    (codecs.BOM_UTF16_BE, "UTF-16"),
)
_ASCII_PROBE = b"import x # -*- coding=:\r\n"
_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class UnreadableSource(Exception):
    """The file cannot be read as Python source; ``reason`` says why, fit for a warning."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


class SourceFile(Record):
    """A source file's text, decoded as Python decodes it."""

    __slots__ = ("encoding", "path", "text")
    path: Final[Path]
    text: Final[str]
    encoding: Final[str]
    """The codec that decoded it (``utf-8``, ``utf-8-sig`` for a BOM, or the cookie's)."""

    def __init__(self, path: Path, text: str, encoding: str) -> None:
        self.path = path
        self.text = text
        self.encoding = encoding


def read_source(path: Path, *, max_bytes: int = DEFAULT_MAX_BYTES) -> SourceFile:
    """Read and decode ``path``; raises :class:`UnreadableSource` with the reason otherwise."""
    data = read_regular_file(path, max_bytes=max_bytes)
    return SourceFile(path, *decode_source(path, data))


def read_regular_file(path: Path, *, max_bytes: int, follow_link: bool = True) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` (never blocks, never reads more).
    Without ``follow_link``, a link is refused (``O_NOFOLLOW``: what a link points to is not
    checked, the link itself is)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    if not follow_link:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags)
    except OSError as error:
        raise UnreadableSource(path, f"cannot open it ({_why(error)})") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = next((name for test, name in _KINDS if test(info.st_mode)), "special")
            raise UnreadableSource(path, f"not a regular file: it is {kind}")
        if info.st_size > max_bytes:
            raise UnreadableSource(path, f"file is larger than {max_bytes} bytes")
        chunks: list[bytes] = []
        size = 0
        while size <= max_bytes:  # the file may grow while it is read: stop at the limit
            chunk = os.read(fd, min(_READ_CHUNK, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
        if size > max_bytes:
            raise UnreadableSource(path, f"file is larger than {max_bytes} bytes")
        return b"".join(chunks)
    except OSError as error:
        raise UnreadableSource(path, f"cannot read it ({_why(error)})") from None
    finally:
        os.close(fd)


def decode_source(path: Path, data: bytes) -> tuple[str, str]:
    """``(text, encoding)`` as Python would decode ``data``. An unknown or contradictory coding
    cookie (Python refuses to run such a file) raises :class:`UnreadableSource`; bytes that are
    not UTF-8 in a file without a cookie are replaced (Python would refuse the whole file, but
    one stray byte must not hide every finding). What Python cannot run raises
    :class:`UnreadableSource` with why."""
    _refuse_what_python_cannot_run(path, data)
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        head = data.removeprefix(codecs.BOM_UTF8).splitlines()[:2]
        if re.search(_COOKIE, b"\n".join(head)):
            raise UnreadableSource(path, f"cannot decode it: {error.msg}") from None
        encoding = "utf-8-sig" if data.startswith(codecs.BOM_UTF8) else "utf-8"
    try:
        codecs.lookup(encoding)
    except LookupError:
        raise UnreadableSource(path, f"cannot decode it: unknown encoding {encoding!r}") from None
    if not _ascii_compatible(encoding):
        raise UnreadableSource(
            path, f"its coding cookie names {encoding}, which Python cannot read source in"
        )
    return data.decode(encoding, errors="replace"), encoding


def _refuse_what_python_cannot_run(path: Path, data: bytes) -> None:
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            raise UnreadableSource(
                path, f"it is {name} (byte order mark): Python cannot run a {name} source file"
            )
    if b"\0" in data:
        raise UnreadableSource(
            path, "it holds a NUL byte: Python cannot run it (source code cannot contain them)"
        )


def _ascii_compatible(encoding: str) -> bool:
    """Whether ASCII text reads as itself in ``encoding``, as Python needs of a source file
    (``# coding: utf-16`` is refused)."""
    try:
        return _ASCII_PROBE.decode(encoding) == _ASCII_PROBE.decode("ascii")
    except (UnicodeError, LookupError):
        return False


def _why(error: OSError) -> str:
    return error.strerror or type(error).__name__
