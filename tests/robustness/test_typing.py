"""Typing for a minute at a person's speed with VS Code's request pattern (typing_sim.py):
every request is answered within 2 s of being sent, and the final diagnostics are those of a
fresh analysis of the final text. ``make load`` types for 3 minutes (load_long.py)."""

from __future__ import annotations

import os
from pathlib import Path

from .lsp_support import running_server, server_alive
from .typing_sim import expected_codes, final_pull, type_for

SECONDS = float(os.environ.get("EVALSUBMIT_TYPING_S", "60"))
ANSWER_WITHIN_S = 2.0


async def test_typing_for_a_minute_every_request_answered_in_time(tmp_path: Path) -> None:
    async with running_server(tmp_path, {"debounceMs": 150}, pull=True) as client:
        result = await type_for(client, tmp_path, SECONDS)
        print(f"\n[typing] {result.summary()}")
        assert server_alive(client)
        assert not result.unanswered, result.summary()
        assert not result.errors, result.summary()
        assert result.worst_s <= ANSWER_WITHIN_S, result.summary()
        path = tmp_path / "typing.py"
        assert await final_pull(client, path) == expected_codes(path, result.final_text)
