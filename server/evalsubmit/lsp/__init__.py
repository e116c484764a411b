"""The evalsubmit language server (pygls 2.x). Start it with ``run_server`` (the CLI's
``evalsubmit serve``) or ``python -m evalsubmit.lsp``."""

import os
import sys

if sys.argv[:1] == ["-m"] and sys.path and sys.path[0] in ("", os.getcwd()):
    # `python -m evalsubmit.lsp` run in the user's workspace (as editors do) put the workspace
    # first on sys.path: a workspace `logging.py` or `argparse.py` would run inside the server.
    # Nothing but `os` and `sys` (both loaded at interpreter start) is imported before this.
    del sys.path[0]

import argparse
import gc
import logging
from collections.abc import Sequence


def run_server(argv: Sequence[str] | None = None) -> int:
    """``evalsubmit serve [--tcp HOST:PORT]``: serve over stdio (default) or TCP."""
    parser = argparse.ArgumentParser(
        prog="evalsubmit serve", description="Run the evalsubmit language server."
    )
    parser.add_argument("--stdio", action="store_true", help="serve over stdin/stdout (default)")
    parser.add_argument("--tcp", metavar="HOST:PORT", help="serve over TCP instead")
    args = parser.parse_args(argv)

    logging.basicConfig(stream=sys.stderr, level=logging.WARNING)
    from evalsubmit.lsp.lifeline import WatchedStdin
    from evalsubmit.lsp.server import create_server

    server = create_server()
    _tune_garbage_collector()
    server.lifeline.start()
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not port.isdigit():
            parser.error(f"--tcp expects HOST:PORT, got {args.tcp!r}")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io(stdin=WatchedStdin(sys.stdin.buffer, server.lifeline.stdin_closed))  # type: ignore[arg-type]
    return 0


def _tune_garbage_collector() -> None:
    """The server keeps parsed trees and analysis caches alive, so CPython's default thresholds
    make it re-traverse them over and over (a large share of each edit's cost). Objects that
    exist at start-up (modules, classes) never die: move them out of the collector's sight, and
    collect young generations far less often. Memory stays bounded: most garbage (the previous
    version's trees) is acyclic and freed by reference counting at once."""
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)


__all__ = ["run_server"]
