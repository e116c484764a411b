"""Through a real LSP client: the base job's placeholders (``jobs/base.py``) are reported while
no subclass in ``jobs/teams/`` sets them, and no longer once one does; an edit of the
subclass's file (an unsaved buffer, or the disk as the client's file watcher reports it)
re-checks the open base with fresh results (the editor's caches keep none of the old)."""

from __future__ import annotations

from pathlib import Path

from lsp_helpers import RecordingClient, codes, logged_errors, open_doc, replace_all, wait_until
from lsprotocol import types

from unit.test_subclasses_elsewhere import BASE, SMOKE

SETS_BOTH = SMOKE.format(body='    SUITE = "qa/smoke"\n    REPEATS = 1')


def _package(root: Path) -> Path:
    (root / "jobs" / "teams").mkdir(parents=True)
    (root / "jobs" / "__init__.py").write_text("")
    (root / "jobs" / "teams" / "__init__.py").write_text("")
    return root / "jobs" / "teams"


def _latest(client: RecordingClient, uri: str) -> list[str] | None:
    history = client.published.get(uri, [])
    return codes(list(history[-1].diagnostics)) if history else None


async def test_editing_a_subclass_buffer_rechecks_the_base(
    client: RecordingClient, tmp_path: Path
) -> None:
    teams = _package(tmp_path)
    base = open_doc(client, tmp_path / "jobs" / "base.py", BASE)
    smoke = open_doc(client, teams / "smoke.py", SMOKE.format(body="    pass"))
    await wait_until(lambda: _latest(client, base) == ["ES108", "ES109"])
    replace_all(client, smoke, SETS_BOTH, version=2)  # unsaved
    await wait_until(lambda: _latest(client, base) == [])
    replace_all(client, smoke, SMOKE.format(body='    SUITE = "qa/smoke"'), version=3)
    await wait_until(lambda: _latest(client, base) == ["ES109"])


async def test_a_subclass_written_to_a_watched_file_rechecks_the_base(
    client: RecordingClient, tmp_path: Path
) -> None:
    """``smoke.py`` imports the base but subclasses nothing yet: it is still a file the base's
    result depends on, so a subclass written to it on disk is seen."""
    teams = _package(tmp_path)
    smoke = teams / "smoke.py"
    smoke.write_text("from jobs import base\n")
    base = open_doc(client, tmp_path / "jobs" / "base.py", BASE)
    await wait_until(lambda: _latest(client, base) == ["ES108", "ES109"])
    smoke.write_text(SETS_BOTH)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=smoke.as_uri(), type=types.FileChangeType.Changed)]
        )
    )
    await wait_until(lambda: _latest(client, base) == [])
    assert logged_errors(client) == []


async def test_a_file_that_did_not_import_the_base_typed_to_subclass_it_rechecks_the_base(
    client: RecordingClient, tmp_path: Path
) -> None:
    """``tool.py`` did not import ``jobs.base``: never looked at, no dependency of the base's
    result. Typed (unsaved) to import it and subclass it setting the placeholder, the question
    which members subclasses elsewhere define gets another answer: the base's ES108 goes."""
    _package(tmp_path)
    base = open_doc(client, tmp_path / "jobs" / "base.py", BASE)
    tool = open_doc(client, tmp_path / "tool.py", "import os\n\nprint(os.sep)\n")
    await wait_until(lambda: _latest(client, base) == ["ES108", "ES109"])
    subclass = 'from jobs.base import BaseJob\n\n\nclass Tool(BaseJob):\n    SUITE = "qa/tool"\n'
    replace_all(client, tool, subclass, version=2)
    await wait_until(lambda: _latest(client, base) == ["ES109"])
