"""The paths the engine follows, through the real server: an ``async def`` helper checked where
its coroutine runs, both sides of a main guard, a mapping pattern that a config never matches.
Each finding is published once, and nothing else (the server logs no internal error)."""

from __future__ import annotations

from pathlib import Path

from lsp_helpers import HEADER, RecordingClient, line_of, logged_errors, open_doc, published

TEXT = HEADER + (
    "import asyncio\n"
    "\n"
    "\n"
    "async def score(rows, target):\n"
    "    return client.evaluator.submit(metric=metric, dataset=rows, target=target)\n"
    "\n"
    "\n"
    "def as_target(value):\n"
    "    match value:\n"
    '        case {"agent": str(agent)}:\n'
    "            return runner\n"
    "        case other:\n"
    "            return other\n"
    "\n"
    "\n"
    "async def main():\n"
    '    await score([{"a": 1}], runner)  # awaited: ES105\n'
    "    pending = score([], runner)  # never run: nothing\n"
    "    pending.close()\n"
    "\n"
    "\n"
    'if __name__ == "__main__":\n'
    "    asyncio.run(main())\n"
    "else:\n"
    '    client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=as_target(cfg))  # ES104\n'
)


async def test_async_helpers_main_guards_and_mapping_patterns_in_the_editor(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_doc(client, workspace / "service.py", TEXT)
    found = sorted((d.range.start.line, str(d.code)) for d in await published(client, uri, 1))
    assert found == [
        (line_of(TEXT, "await score("), "ES105"),
        (line_of(TEXT, "target=as_target(cfg)"), "ES104"),
    ]
    assert logged_errors(client) == []
