"""The command line's argument parser class: argparse's, without its ``shutil`` import.

argparse asks ``shutil.get_terminal_size()`` for the help width each time it makes a help
formatter, which it does for every ``add_argument`` (to check the metavar), and ``shutil``
imports ``bz2``, ``lzma`` and more: a few milliseconds of a start-up of tens. :class:`Parser`
makes its formatters with the same width, read as ``shutil`` reads it.
"""

from __future__ import annotations

import argparse
import os
import sys


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose help width is read without importing ``shutil``."""

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse.HelpFormatter: `width=None` is `shutil.get_terminal_size().columns - 2`.
        return self.formatter_class(prog=self.prog, width=terminal_columns() - 2)  # type: ignore[call-arg]


def terminal_columns() -> int:
    """``shutil.get_terminal_size().columns``: ``COLUMNS`` when it is a positive integer, else
    the width of the terminal of ``sys.__stdout__``, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns > 0:
        return columns
    try:
        size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80
    return size.columns or 80
