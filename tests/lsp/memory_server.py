"""The real server, with one more command for tests/lsp/test_memory.py: what Python still holds
(``tracemalloc``, after a full collection), and where the growth since the last call was made.
"""

from __future__ import annotations

import gc
import os
import tracemalloc
from typing import Any

tracemalloc.start(int(os.environ.get("EVALSUBMIT_TEST_TRACE_FRAMES", "1")))

from evalsubmit.lsp import run_server  # noqa: E402  (traced from the start)
from evalsubmit.lsp import server as server_module  # noqa: E402

RETAINED = "evalsubmit.test.retained"
_real_create = server_module.create_server
_previous: list[tracemalloc.Snapshot] = []


def _retained(*args: Any) -> dict[str, Any]:
    """``{"bytes"}``: what Python holds now; with the argument ``"trace"``, also ``"growth"``,
    where what was added since the last traced call was allocated (slow: for a failure)."""
    gc.collect()
    current = tracemalloc.get_traced_memory()[0]
    if "trace" not in args:
        return {"bytes": current}
    snapshot = tracemalloc.take_snapshot()
    growth: list[str] = []
    if _previous:
        for stat in snapshot.compare_to(_previous[-1], "traceback")[:12]:
            frames = " <- ".join(
                f"{f.filename.rsplit('/', 2)[-1]}:{f.lineno}" for f in reversed(stat.traceback[-8:])
            )
            growth.append(f"{stat.size_diff:+,} B in {stat.count_diff:+,} blocks: {frames}")
    _previous[:] = [snapshot]
    return {"bytes": current, "growth": growth}


def create_server() -> server_module.EvalsubmitServer:
    ls = _real_create()
    ls.command(RETAINED)(_retained)
    return ls


server_module.create_server = create_server

if __name__ == "__main__":
    raise SystemExit(run_server())
