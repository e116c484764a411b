"""The command line's argument parser class: argparse's, without its ``shutil`` import, and
without abbreviated options; and the guard against file names that a shell made options.

argparse asks ``shutil.get_terminal_size()`` for the help width each time it makes a help
formatter, which it does for every ``add_argument`` (to check the metavar), and ``shutil``
imports ``bz2``, ``lzma`` and more: a few milliseconds of a start-up of tens. :class:`Parser`
makes its formatters with the same width, read as ``shutil`` reads it.
"""

from __future__ import annotations

import argparse
import os
import sys

TYPE_CHECKING = False  # as in main: no typing import for the start-up
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


class Parser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` whose help width is read without importing ``shutil``, and
    which takes no abbreviation of an option: a file named ``--pyth=x`` must not become
    ``--python=x``. Its subcommands' parsers are of this class too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def _get_formatter(self) -> argparse.HelpFormatter:
        # argparse.HelpFormatter: `width=None` is `shutil.get_terminal_size().columns - 2`.
        return self.formatter_class(prog=self.prog, width=terminal_columns() - 2)  # type: ignore[call-arg]


class CommandParser(Parser):
    """A subcommand's parser: an unknown option is its own usage error (``usage: evalsubmit
    check ...``), as ruff reports it, not the top-level parser's (argparse hands a
    subparser's leftovers up to the top level, whose usage names no option of the command)."""

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        parsed, extras = super().parse_known_args(args, namespace)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}")
        return parsed, extras


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


def globbed_options(argv: Sequence[str]) -> list[str]:
    """The words before ``--`` that look like options and are also the names of existing
    paths (links too, even dangling): a shell's glob (``evalsubmit check *.py``) makes a file
    named ``--python=run.py`` or ``--exit-zero`` an option, which would run a program, write a
    file or pass a failing check. Such a word is ambiguous, and the run is refused before
    anything is parsed, run or written. ``-`` (stdin) is no option."""
    ambiguous: list[str] = []
    for word in argv:
        if word == "--":
            break
        if word.startswith("-") and word != "-" and os.path.lexists(word):
            ambiguous.append(word)
    return ambiguous
