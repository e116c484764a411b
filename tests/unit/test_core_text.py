"""evalsubmit.core: LSP-correct line splitting and reading source files the way Python does."""

from __future__ import annotations

import os
import random
import re
import threading
import time
from pathlib import Path

import pytest

from evalsubmit.core.lines import (
    LINE_BREAK,
    TextLines,
    line_starts,
    offset_at,
    split_lines,
    split_lines_keepends,
)
from evalsubmit.core.sourcefile import UnreadableSource, read_source

# Everything str.splitlines() breaks at that the LSP (and Python's tokenizer) does not.
NOT_LINE_BREAKS = "\v\f\x1c\x1d\x1e\x85\u2028\u2029"


def test_only_lsp_line_breaks_split() -> None:
    text = "a\fb\r\nc\rd\ne" + NOT_LINE_BREAKS + "f"
    assert split_lines(text) == ["a\fb", "c", "d", "e" + NOT_LINE_BREAKS + "f"]
    assert split_lines("") == [""]
    assert split_lines("x\n") == ["x", ""]
    assert split_lines("\r\n\r") == ["", "", ""]


@pytest.mark.parametrize("seed", range(20))
def test_splitting_round_trips_and_agrees_with_offsets(seed: int) -> None:
    rng = random.Random(seed)
    alphabet = ["a", "é", "😀", " ", "\n", "\r", "\r\n", *NOT_LINE_BREAKS]
    text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 200)))
    kept = split_lines_keepends(text)
    assert "".join(kept) == text
    lines = split_lines(text)
    starts = line_starts(text)
    assert len(starts) == len(lines)
    for index, line in enumerate(lines):
        assert text[starts[index] : starts[index] + len(line)] == line
        assert offset_at(text, starts, index, 10**6) == starts[index] + len(line)  # clamped
    assert offset_at(text, starts, len(lines) + 5, 0) == len(text)
    assert offset_at(text, starts, -1, 3) == 0


@pytest.mark.parametrize("seed", range(20))
def test_texts_without_carriage_returns_split_as_the_definition_says(seed: int) -> None:
    """Such texts take a faster path (most files): the same lines and offsets as the regex."""
    rng = random.Random(seed)
    alphabet = ["a", "é", "😀", " ", "\n", "\n\n", *NOT_LINE_BREAKS]
    text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 200)))
    assert split_lines(text) == LINE_BREAK.split(text)
    assert line_starts(text) == [0, *(m.end() for m in LINE_BREAK.finditer(text))]
    kept = [m.group() for m in re.finditer(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)]
    assert split_lines_keepends(text) == kept


@pytest.mark.parametrize("seed", range(20))
def test_texts_with_only_lsp_line_breaks_keep_their_ends_as_the_definition_says(seed: int) -> None:
    """Such texts take str.splitlines (most files): the same lines as the regex."""
    rng = random.Random(seed)
    alphabet = ["a", "é", "😀", " ", "\t", "\n", "\r", "\r\n", "\n\r", "\x00"]
    text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 200)))
    kept = [m.group() for m in re.finditer(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", text)]
    assert split_lines_keepends(text) == kept


@pytest.mark.parametrize("seed", range(30))
def test_lines_cut_at_their_starts_are_the_split_lines(seed: int) -> None:
    """What the server's results hold as their lines (the document's starts, no split)."""
    rng = random.Random(seed)
    alphabet = ["a", "é", "😀", " ", "\n", "\r", "\r\n", "\n\r", *NOT_LINE_BREAKS]
    text = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 200)))
    lines = split_lines(text)
    cut = TextLines(text, line_starts(text))
    assert len(cut) == len(lines)
    assert [cut[index] for index in range(len(cut))] == lines
    assert [cut[-index] for index in range(1, len(cut) + 1)] == [
        lines[-i] for i in range(1, len(lines) + 1)
    ]
    assert list(cut) == lines and cut == lines and cut == TextLines(text, line_starts(text))
    assert cut[1:-1] == lines[1:-1]
    for wrong in (len(lines), -len(lines) - 1):
        with pytest.raises(IndexError):
            cut[wrong]


def write(path: Path, data: bytes) -> Path:
    path.write_bytes(data)
    return path


def test_decodes_like_python(tmp_path: Path) -> None:
    latin = write(tmp_path / "l.py", '# -*- coding: latin-1 -*-\nx = "café"\n'.encode("latin-1"))
    assert read_source(latin).text.endswith('x = "café"\n')
    bom = write(tmp_path / "b.py", b'\xef\xbb\xbfx = "\xc3\xa9"\r\n')
    found = read_source(bom)
    assert found.text == 'x = "é"\r\n' and found.encoding == "utf-8-sig"  # line ends kept
    second_line = write(tmp_path / "s.py", b"#!/usr/bin/env python\n# coding=cp1252\ns = '\x80'\n")
    assert "s = '€'" in read_source(second_line).text
    bad_bytes = write(tmp_path / "u.py", b"x = '\xff\xfe'\ny = 1\n")
    assert read_source(bad_bytes).text == "x = '\ufffd\ufffd'\ny = 1\n"


def test_refuses_what_python_refuses(tmp_path: Path) -> None:
    unknown = write(tmp_path / "c.py", b"# coding: no-such-codec\nx = 1\n")
    with pytest.raises(UnreadableSource, match="unknown encoding"):
        read_source(unknown)
    clash = write(tmp_path / "d.py", b"\xef\xbb\xbf# coding: latin-1\n")
    with pytest.raises(UnreadableSource, match="cannot decode"):
        read_source(clash)


def test_reads_only_regular_files_and_bounded(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)
    started = time.monotonic()
    with pytest.raises(UnreadableSource, match="FIFO"):
        read_source(fifo)  # never waits for a writer
    assert time.monotonic() - started < 1
    with pytest.raises(UnreadableSource, match="character device"):
        read_source(Path("/dev/zero"))
    with pytest.raises(UnreadableSource, match="folder"):
        read_source(tmp_path)
    big = write(tmp_path / "big.py", b"x = 1\n" * 100)
    with pytest.raises(UnreadableSource, match="larger than 100 bytes"):
        read_source(big, max_bytes=100)
    with pytest.raises(UnreadableSource, match="No such file"):
        read_source(tmp_path / "missing.py")


def test_a_growing_file_is_cut_at_the_limit(tmp_path: Path) -> None:
    """A file that grows while it is read (a log someone named .py) is never read past the
    limit."""
    path = write(tmp_path / "grows.py", b"")
    stop = threading.Event()

    def grow() -> None:
        with path.open("ab") as out:
            for _ in range(128):  # at most 8 MiB, however slow the reader
                if stop.is_set():
                    break
                out.write(b"x" * 65536)
                out.flush()

    writer = threading.Thread(target=grow)
    writer.start()
    try:
        time.sleep(0.05)
        with pytest.raises(UnreadableSource, match="larger than"):
            read_source(path, max_bytes=1_000_000)
    finally:
        stop.set()
        writer.join()
