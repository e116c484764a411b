"""``evalsubmit``: check / preview / rule / submit / serve."""

from __future__ import annotations

import contextlib
import sys
from typing import TYPE_CHECKING

from evalsubmit import __version__

if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

# The commands (and argparse) are imported when the parser is built: `evalsubmit --version`,
# which pre-commit hooks and editors run to probe the tool, imports nothing else.


def main(argv: Sequence[str] | None = None) -> int:
    if list(sys.argv[1:] if argv is None else argv) == ["--version"]:
        print(f"evalsubmit {__version__}")
        return 0
    from evalsubmit.cli.common import EXIT_CLEAN, EXIT_ERROR

    _never_fail_on_output()
    parser = _parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_CLEAN if exit_.code == 0 else EXIT_ERROR
    import logging  # not before it is needed: `--version` and `--help` start faster

    # What the CLI skips is in its output; the library's own log lines (e.g. the project
    # listing's walk) would only repeat them on stderr.
    logging.getLogger("evalsubmit").addHandler(logging.NullHandler())
    try:
        result: int = args.handler(args)
        return result
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN


def _never_fail_on_output() -> None:
    """A message or a file name that the output's encoding cannot hold (``PYTHONIOENCODING=
    ascii``, a Windows console, a non-UTF-8 file name) is escaped, never a UnicodeEncodeError."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="backslashreplace")


def _parser() -> argparse.ArgumentParser:
    import argparse

    from evalsubmit.cli import check, preview, rule, submit

    parser = argparse.ArgumentParser(prog="evalsubmit", description=__doc__)
    parser.add_argument("--version", action="version", version=f"evalsubmit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True)
    for command in (check, preview, rule, submit):
        command.add_parser(commands)
    serve = commands.add_parser("serve", help="run the language server (stdio)")
    serve.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    serve.set_defaults(handler=_serve)
    return parser


def _serve(args: argparse.Namespace) -> int:
    from evalsubmit.lsp import run_server

    argv = ["--tcp", args.tcp] if args.tcp else []
    result = run_server(argv)
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
