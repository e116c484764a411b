"""``evalsubmit``: check / preview / rule / submit / serve."""

from __future__ import annotations

import sys

from evalsubmit import __version__

# Not typing's TYPE_CHECKING: `evalsubmit --version` (probed by pre-commit and editors) would
# import typing, re and enum for it, a third of its time. mypy reads the name alike.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence

# The commands (and argparse) are imported when the parser is built: `evalsubmit --version`,
# which pre-commit hooks and editors run to probe the tool, imports nothing else.

COMMANDS: tuple[tuple[str, str, str], ...] = (
    ("check", "evalsubmit.cli.check", "report submit() mistakes in files or folders"),
    ("preview", "evalsubmit.cli.preview", "print the target JSON for a runner"),
    ("rule", "evalsubmit.cli.rule", "print a rule's documentation"),
    (
        "generate-shell-completion",
        "evalsubmit.cli.completion",
        "print a completion script for bash, zsh or fish",
    ),
    (
        "submit",
        "evalsubmit.cli.submit",
        "submit the runner or taskset submit() call at PATH:LINE to the NeMo Platform",
    ),
)
"""Each command, the module that builds its parser and runs it, and its one-line help (the
same as the module's; a unit test keeps them equal). Only the command being run is imported
and built: the others are listed by name and help, which is all ``evalsubmit --help`` and an
unknown command's error show of them."""


def main(argv: Sequence[str] | None = None) -> int:
    if list(sys.argv[1:] if argv is None else argv) in (["--version"], ["-V"]):
        print(f"evalsubmit {__version__}")
        return 0
    from evalsubmit.cli.common import EXIT_CLEAN, EXIT_ERROR

    _never_fail_on_output()
    words = list(sys.argv[1:] if argv is None else argv)
    if _refused_as_ambiguous(words):
        return EXIT_ERROR
    command = _command_of(words)
    if command == "check":
        from evalsubmit.cli import collector

        collector.pause_for_start_up()
    parser = _parser(words)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exit_:
        return EXIT_CLEAN if exit_.code == 0 else EXIT_ERROR
    _quiet_library_logs(serving=args.command == "serve")
    try:
        result: int = args.handler(args)
        return result
    except KeyboardInterrupt:
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_CLEAN
    finally:
        if command == "check":
            collector.resume(freeze=False)


def _refused_as_ambiguous(words: Sequence[str]) -> bool:
    """True (and a message) when a word is both an option and an existing file's name."""
    from evalsubmit.cli.parsing import globbed_options

    ambiguous = globbed_options(words)
    if not ambiguous:
        return False
    from evalsubmit.cli.output import shown

    for word in ambiguous:
        print(
            f"evalsubmit: `{shown(word)}` is a file in this folder and also an option; put `--` "
            "before file names (`evalsubmit check -- *.py`), or write the option otherwise",
            file=sys.stderr,
        )
    return True


def _quiet_library_logs(*, serving: bool) -> None:
    """What the CLI skips is in its output; the library's own log lines (the project listing's
    walk, the only logger outside the server) would only repeat them on stderr: a NullHandler
    takes them. Added when the first is logged, so that a check that logs nothing never loads
    :mod:`logging` (now when it is loaded already, or for the server)."""
    if serving or "logging" in sys.modules:
        _add_null_handler()
        return
    from evalsubmit.workspace.walk import before_logging

    before_logging(_add_null_handler)


def _add_null_handler() -> None:
    import logging

    logging.getLogger("evalsubmit").addHandler(logging.NullHandler())


def _never_fail_on_output() -> None:
    """A message or a file name that the output's encoding cannot hold (``PYTHONIOENCODING=
    ascii``, a Windows console, a non-UTF-8 file name) is escaped, never a UnicodeEncodeError."""
    import contextlib

    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            with contextlib.suppress(OSError, ValueError):
                reconfigure(errors="backslashreplace")


def _parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with ``argv``, built in full only for the command it runs."""
    import importlib

    from evalsubmit.cli.parsing import CommandParser, Parser

    running = _command_of(argv) if argv is not None else None
    parser = Parser(prog="evalsubmit", description=__doc__)
    parser.add_argument("-V", "--version", action="version", version=f"evalsubmit {__version__}")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=CommandParser)
    for name, module, help_text in COMMANDS:
        if running is None or running == name:
            importlib.import_module(module).add_parser(commands)
        else:
            commands.add_parser(name, help=help_text)
    serve = commands.add_parser("serve", help="run the language server (stdio)")
    serve.add_argument("--tcp", metavar="HOST:PORT", help="listen on TCP instead of stdio")
    serve.set_defaults(handler=_serve)
    return parser


def _command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs (its first word that is not an option: the top-level options
    take no value), or None when there is none or it is not a command (all are built then)."""
    for word in argv:
        if not word.startswith("-"):
            return word if any(word == name for name, _, _ in COMMANDS) else None
    return None


def _serve(args: argparse.Namespace) -> int:
    from evalsubmit.lsp import run_server

    argv = ["--tcp", args.tcp] if args.tcp else []
    result = run_server(argv)
    return int(result or 0)


if __name__ == "__main__":
    raise SystemExit(main())
