"""Logging through ``window/logMessage`` (the editor's output channel), never popups.

Records of the ``evalsubmit`` loggers (at the ``logLevel`` setting) and pygls's own errors are
forwarded. Worker threads hand their records to the event loop; a failure to send is dropped
rather than logged again (no recursion).
"""

from __future__ import annotations

import asyncio
import functools
import logging
import sys
import threading
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from lsprotocol import types

if TYPE_CHECKING:
    from pygls.lsp.server import LanguageServer

    from evalsubmit.lsp.settings import LogLevel

log = logging.getLogger("evalsubmit.lsp")

_MESSAGE_TYPES = (
    (logging.ERROR, types.MessageType.Error),
    (logging.WARNING, types.MessageType.Warning),
    (logging.INFO, types.MessageType.Info),
)


class LspLogHandler(logging.Handler):
    def __init__(self, server: LanguageServer) -> None:
        super().__init__()
        self._server = server
        self._loop: asyncio.AbstractEventLoop | None = None
        self._guard = threading.local()
        self.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    def emit(self, record: logging.LogRecord) -> None:
        if getattr(self._guard, "active", False) or self._server.protocol.writer is None:
            return
        try:
            message = self.format(record)
        except Exception:
            return
        kind = next((t for lvl, t in _MESSAGE_TYPES if record.levelno >= lvl), None)
        params = types.LogMessageParams(type=kind or types.MessageType.Log, message=message)
        loop = self._loop
        try:
            if loop is not None and not _on_loop(loop):
                loop.call_soon_threadsafe(self._send, params)
            else:
                self._send(params)
        except RuntimeError:  # loop closed during shutdown
            pass

    def _send(self, params: types.LogMessageParams) -> None:
        self._guard.active = True
        try:
            self._server.window_log_message(params)
        except Exception:
            pass
        finally:
            self._guard.active = False


def _on_loop(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def install(server: LanguageServer) -> LspLogHandler:
    handler = LspLogHandler(server)
    package = logging.getLogger("evalsubmit")
    package.addHandler(handler)
    package.setLevel(logging.INFO)  # the default of the logLevel setting, until it is read
    package.propagate = False
    pygls = logging.getLogger("pygls")
    pygls_errors = LspLogHandler(server)
    pygls_errors.setLevel(logging.ERROR)
    pygls.addHandler(pygls_errors)
    # pygls's warnings would reach the root handler (stderr), which editors show as warnings:
    # most are protocol chatter (a cancel for a request already answered), not problems.
    pygls.addHandler(PyglsNotices(logging.WARNING))
    pygls.propagate = False
    return handler


class PyglsNotices(logging.Handler):
    """pygls's warnings in evalsubmit's own log: the protocol chatter at debug level, anything
    else as the warning it is (errors go to the client's log as they are)."""

    CHATTER = ("Cancel notification for unknown message id", "Received response to unknown")

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.ERROR:
            return
        message = record.getMessage()
        level = logging.DEBUG if message.startswith(self.CHATTER) else logging.WARNING
        logging.getLogger("evalsubmit.lsp.pygls").log(level, "pygls: %s", message)


def to_stderr(message: str) -> None:
    """A line on stderr (editors keep it in the server's log), even when the client is gone."""
    try:
        sys.stderr.write(message.rstrip("\n") + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def set_level(level: LogLevel) -> None:
    """The ``logLevel`` setting: its names are :mod:`logging`'s, in lower case."""
    logging.getLogger("evalsubmit").setLevel(level.upper())


P = ParamSpec("P")
R = TypeVar("R")


def guarded(
    default: Any = None,
) -> Callable[[Callable[P, Awaitable[R]]], Callable[P, Awaitable[R]]]:
    """Wrap an async handler: an exception is logged and ``default`` returned, never raised.

    The server keeps serving after any handler failure, and the editor shows no popup.
    Cancellation (the client's ``$/cancelRequest``) still propagates.
    """

    def decorate(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        @functools.wraps(fn)
        async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            try:
                return await fn(*args, **kwargs)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("internal error in %s", fn.__name__)
                result: R = default
                return result

        return wrapper

    return decorate


def guarded_now(fn: Callable[P, None]) -> Callable[P, None]:
    """:func:`guarded` for a handler that runs to its end at once (nothing to await): an
    exception is logged, never raised."""

    @functools.wraps(fn)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> None:
        try:
            fn(*args, **kwargs)
        except Exception:
            log.exception("internal error in %s", fn.__name__)

    return wrapper
