"""Pausing Python's cyclic garbage collector while analyses run.

An analysis allocates hundreds of thousands of objects that live until it ends (trees, values,
environments); the collector's passes over them while they are being built are a large part of
a cold analysis of a large module (docs/benchmarks.md, "Figures that were in docstrings") and
find almost nothing to free. Paused for the analysis and resumed after, the collector runs once
on what the analysis left behind, at the next allocation (its counts are far above their
thresholds by then).

Analyses that overlap (the server's reverse step of one version and the forward analysis of the
next, in two worker threads) share one pause: the collector is resumed when the last of them
ends, so the end of one never lets the collector run in the middle of the other (where its pass
over everything allocated since the last one would delay that edit's findings). So that
analyses overlapping without a gap never keep it off for good, a pause that has lasted
:data:`MAX_PAUSED_S` ends with the next analysis that ends, the others then running with the
collector on. A host that turned the collector off itself keeps it off.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

MAX_PAUSED_S = 1.0
"""How long overlapping analyses may keep the collector off (memory stays bounded)."""

_lock = threading.Lock()
_holders = 0
_ours = False
"""Whether the current pause turned the collector off (and must turn it on again)."""
_since = 0.0


@contextmanager
def paused_collection() -> Iterator[None]:
    global _holders, _ours, _since
    with _lock:
        if _holders == 0 and gc.isenabled():
            gc.disable()
            _ours = True
            _since = time.monotonic()
        _holders += 1
    try:
        yield
    finally:
        with _lock:
            _holders -= 1
            if _ours and (_holders == 0 or time.monotonic() - _since >= MAX_PAUSED_S):
                _ours = False  # resumed: the analyses still running go on with it on
                gc.enable()
