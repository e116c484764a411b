"""The evalsubmit language server (pygls 2.x). Start it with ``evalsubmit serve`` or
``python -P -m evalsubmit.lsp`` (``run_server``).

Only these two are safe by construction. ``python -m evalsubmit.lsp`` *without* ``-P``, started
in the user's workspace as editors do, puts the workspace first on ``sys.path`` and ``runpy``
imports modules (``types``, ``functools``, ``contextlib``, ``importlib``...) before any line of
evalsubmit runs: a workspace ``types.py`` would run. The guard below still drops the workspace
from ``sys.path`` for what is imported later, and says how to start the server safely.
"""

import os
import sys

if sys.argv[:1] == ["-m"] and sys.path and sys.path[0] in ("", os.getcwd()):
    # Nothing but `os` and `sys` (both loaded at interpreter start) is imported before this.
    del sys.path[0]

import argparse
import gc
import logging
from collections.abc import Sequence


def _warn_if_started_unsafely() -> None:
    """`python -m evalsubmit.lsp` without -P: say how to start the server safely."""
    original = getattr(sys, "orig_argv", [])
    target = original[original.index("-m") + 1 :][:1] if "-m" in original else []
    if target == ["evalsubmit.lsp"] and not sys.flags.safe_path:
        sys.stderr.write(
            "evalsubmit: warning: started as `python -m` without -P, so modules of the working "
            "directory named like the standard library may already have run. Start the server "
            "with `evalsubmit serve` or `python -P -m evalsubmit.lsp`.\n"
        )


_warn_if_started_unsafely()


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
        if not port.isdigit() or not 0 < int(port) < 65536:
            parser.error(f"--tcp expects HOST:PORT, got {args.tcp!r}")
        return server.serve_tcp(host or "127.0.0.1", int(port))
    stdin = WatchedStdin(sys.stdin.buffer, server.lifeline.stdin_closed)  # type: ignore[arg-type]
    return server.serve_stdio(stdin, sys.stdout.buffer)  # type: ignore[arg-type]


def _tune_garbage_collector() -> None:
    """The server keeps parsed trees and analysis caches alive, so CPython's default thresholds
    make it re-traverse them over and over (a large share of each edit's cost). Objects that
    exist at start-up (modules, classes) never die: move them out of the collector's sight, and
    collect young generations far less often. Memory stays bounded: most garbage (the previous
    version's trees) is acyclic and freed by reference counting at once."""
    gc.freeze()
    gc.set_threshold(20_000, 20, 50)


__all__ = ["run_server"]
