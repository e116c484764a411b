"""The long load run of the language server: 10,000 rapid didChange events across 50
documents while hovering, then 3 minutes of typing with VS Code's request pattern.

    python -m tests.robustness.load_long [--events 10000] [--docs 50] [--typing-seconds 180]
                                         [--json PATH]

(or ``scripts/load.sh``). Prints events/s, hover latency during the storm, the server's RSS
after warm-up and at the end, and the latency of every kind of request while typing; exit
status 1 if a check of the short tests fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from pathlib import Path

from .lsp_support import running_server, server_alive, storm
from .typing_sim import expected_codes, final_pull, type_for

RSS_FACTOR = 3.0
ANSWER_WITHIN_S = 2.0


async def typing(seconds: float) -> list[str]:
    """The typing simulation; the problems found (none: passed)."""
    with tempfile.TemporaryDirectory(prefix="evalsubmit-typing-") as tmp:
        root = Path(tmp)
        async with running_server(root, {"debounceMs": 150}, pull=True) as client:
            result = await type_for(client, root, seconds)
            path = root / "typing.py"
            final_ok = await final_pull(client, path) == expected_codes(path, result.final_text)
            alive = server_alive(client)
    print("== typing summary ==")
    print(result.summary())
    problems = []
    if not alive:
        problems.append("the server died while typing")
    if result.unanswered or result.errors:
        problems.append("requests unanswered or failed while typing")
    if result.worst_s > ANSWER_WITHIN_S:
        problems.append(f"a request took {result.worst_s:.1f} s (> {ANSWER_WITHIN_S:g} s)")
    if not final_ok:
        problems.append("the final diagnostics differ from a fresh analysis")
    return problems


async def run(events: int, docs: int, typing_s: float, json_path: Path | None) -> int:
    with tempfile.TemporaryDirectory(prefix="evalsubmit-load-") as tmp:
        root = Path(tmp)
        async with running_server(root) as client:
            result = await storm(client, root, events=events, docs=docs, settle_timeout=600)
            alive = server_alive(client)
    print("== load summary ==")
    print(result.summary())
    problems = []
    if not alive:
        problems.append("the server died")
    if result.final_published != docs:
        problems.append("not every final version was published")
    if result.hovers_answered_during_storm < 1:
        problems.append("no hover was answered during the storm")
    if result.rss_end_kb >= RSS_FACTOR * result.rss_warm_kb + 64 * 1024:
        problems.append("RSS grew more than the allowed factor")
    if typing_s > 0:
        problems += await typing(typing_s)
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        lat = sorted(result.hover_latencies_s)
        json_path.write_text(
            json.dumps(
                {
                    "events": result.events,
                    "docs": result.docs,
                    "send_s": result.send_s,
                    "total_s": result.total_s,
                    "events_per_s": result.events_per_s,
                    "hovers": len(lat),
                    "hovers_during_storm": result.hovers_answered_during_storm,
                    "hover_median_ms": 1000 * lat[len(lat) // 2] if lat else None,
                    "hover_max_ms": 1000 * lat[-1] if lat else None,
                    "rss_warm_kb": result.rss_warm_kb,
                    "rss_end_kb": result.rss_end_kb,
                    "rss_max_kb": result.rss_max_kb,
                    "problems": problems,
                },
                indent=2,
            )
        )
    for problem in problems:
        print("FAILED:", problem)
    return 1 if problems else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.robustness.load_long")
    parser.add_argument("--events", type=int, default=10_000)
    parser.add_argument("--docs", type=int, default=50)
    parser.add_argument("--typing-seconds", type=float, default=180.0)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    return asyncio.run(run(args.events, args.docs, args.typing_seconds, args.json))


if __name__ == "__main__":
    sys.exit(main())
