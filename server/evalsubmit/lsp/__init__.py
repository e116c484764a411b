"""The evalsubmit language server (pygls 2.x). Start it with ``run_server`` (the CLI's
``evalsubmit serve``) or ``python -m evalsubmit.lsp``."""

from __future__ import annotations

import argparse
import logging
import sys
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
    from evalsubmit.lsp.server import create_server

    server = create_server()
    if args.tcp:
        host, _, port = args.tcp.rpartition(":")
        if not port.isdigit():
            parser.error(f"--tcp expects HOST:PORT, got {args.tcp!r}")
        server.start_tcp(host or "127.0.0.1", int(port))
    else:
        server.start_io()
    return 0


__all__ = ["run_server"]
