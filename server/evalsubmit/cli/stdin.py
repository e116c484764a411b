"""``check --stdin-filename PATH -``: the source read from stdin, decoded as Python decodes a
file (BOM, PEP 263 cookie), and the fixed source written back to stdout in that encoding."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import BinaryIO

from evalsubmit.core.records import record
from evalsubmit.core.sourcefile import DEFAULT_MAX_BYTES, UnreadableSource, decode_source


@record
class StdinSource:
    path: Path
    """The path it is checked as (``--stdin-filename``)."""
    text: str
    encoding: str


def read_stdin(path: Path, stream: BinaryIO | None = None) -> StdinSource | None:
    """The source on stdin; None and a message on stderr when it cannot be used."""
    source = stream if stream is not None else sys.stdin.buffer
    data = source.read(DEFAULT_MAX_BYTES + 1)
    if len(data) > DEFAULT_MAX_BYTES:
        print(f"evalsubmit: stdin: larger than {DEFAULT_MAX_BYTES} bytes", file=sys.stderr)
        return None
    try:
        text, encoding = decode_source(path, data)
    except UnreadableSource as error:
        print(f"evalsubmit: stdin: {error.reason}", file=sys.stderr)
        return None
    return StdinSource(path, text, encoding)


def write_source(text: str, encoding: str) -> None:
    """The (fixed) source to stdout, in the encoding it came in (a BOM in, a BOM out)."""
    sys.stdout.flush()
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is None:  # a text-only stream (an embedding host): the text as is
        sys.stdout.write(text)
        return
    try:
        data = text.encode(encoding)
    except UnicodeError:
        data = text.encode("utf-8")
    buffer.write(data)
    buffer.flush()
