"""The SDK's pydantic models, imported in a worker thread once a document's first result shows
that its previews will need them, while the editor shows the diagnostics.

The preview of a runner with parts that are not statically known (or refused) is rendered from
the SDK's models (analysis/target/derive.py), imported on first use: an import that the
session's first hover of such a runner would otherwise pay. This is an ordinary import of our
own module, run ahead of time; a runner whose parts become unknown only after later edits still
pays for it at its first hover.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import logging
import sys
from concurrent.futures import Executor

from evalsubmit.analysis import ModuleReport

log = logging.getLogger(__name__)

SDK_MODELS = "evalsubmit.sdk.models"


def needs_sdk_models(report: ModuleReport) -> bool:
    """Whether a preview of ``report`` will be rendered with the SDK's models when shown: one
    without a target (a part unknown or refused) whose rendering is deferred."""
    previews = [*report.runners, *(s.target for s in report.submits if s.target is not None)]
    return any(p.target is None and not isinstance(p.render, str) for p in previews)


def import_sdk_models() -> None:
    """Import the models the deferred rendering uses (in a worker thread)."""
    try:
        importlib.import_module(SDK_MODELS)
    except Exception:  # the hover that needs them will say what is wrong
        log.debug("importing evalsubmit.sdk.models ahead of the first hover failed", exc_info=True)


class SdkPreload:
    """Told of every result handed on (on the event loop); starts the import at most once."""

    def __init__(self, executor: Executor) -> None:
        self._executor = executor
        self._started = False

    def after_result(self, report: ModuleReport, *, first_of_document: bool) -> None:
        # Only a document's first result is looked at: the look reads every preview of the
        # module, too much to spend on every edit.
        if not first_of_document or self._started or SDK_MODELS in sys.modules:
            return
        asyncio.get_running_loop().call_soon(self._maybe_import, report)

    def _maybe_import(self, report: ModuleReport) -> None:
        if self._started or not needs_sdk_models(report):
            return
        self._started = True
        # Not awaited: it never raises, and nothing waits for it. A pool that is shut down (the
        # server is stopping) refuses it with RuntimeError.
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().run_in_executor(self._executor, import_sdk_models)
