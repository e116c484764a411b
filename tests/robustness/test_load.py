"""Load the language server (short run): rapid didChange events across 50 documents while
hovering. The long run (10,000 events) is ``python -m tests.robustness.load_long``.
"""

from __future__ import annotations

import os
from pathlib import Path

from .lsp_support import running_server, server_alive, storm

EVENTS = int(os.environ.get("EVALSUBMIT_LOAD_EVENTS", "1000"))
RSS_FACTOR = 3.0
"""Generous: the end RSS may be at most this times the RSS after warm-up (plus 64 MiB)."""


async def test_storm_of_changes_while_hovering(tmp_path: Path) -> None:
    async with running_server(tmp_path) as client:
        result = await storm(client, tmp_path, events=EVENTS, docs=50)
        print(f"\n[load] {result.summary()}")
        assert server_alive(client)
        # Every document's final version was published with the findings of its final text.
        assert result.final_published == 50
        # Hovers were answered while the storm was going on, and had content.
        assert result.hovers_answered_during_storm >= 1, result.summary()
        assert result.hovers_with_content == len(result.hover_latencies_s), result.summary()
        assert max(result.hover_latencies_s) < 60, result.summary()
        # Memory does not grow without bound.
        assert result.rss_end_kb < RSS_FACTOR * result.rss_warm_kb + 64 * 1024, result.summary()
