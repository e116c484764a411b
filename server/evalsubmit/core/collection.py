"""Pausing Python's cyclic garbage collector while one analysis runs.

An analysis allocates hundreds of thousands of objects that live until it ends (trees, values,
environments); the collector's passes over them while they are being built are a large part of
a cold analysis of a large module (docs/benchmarks.md, "Figures that were in docstrings") and
find almost nothing to free. Paused for the analysis and resumed after, the collector runs once
on what the analysis left behind, at the next allocation (its counts are far above their
thresholds by then).

Only one analysis at a time holds the pause (the first to ask while the collector is on): two
analyses running in parallel threads never keep it off beyond the end of the one that paused
it, so the collector runs between analyses however they overlap. A host that turned the
collector off itself keeps it off.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_held = False


@contextmanager
def paused_collection() -> Iterator[None]:
    global _held
    with _lock:
        mine = not _held and gc.isenabled()
        if mine:
            _held = True
            gc.disable()
    try:
        yield
    finally:
        if mine:
            with _lock:
                _held = False
                gc.enable()
