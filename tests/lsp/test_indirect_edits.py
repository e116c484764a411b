"""Through a real LSP client: an unsaved edit of a module two imports away changes the findings
of the open document (jobs.py -> settings.py -> limits.py; the editor kept the old result until
it was restarted)."""

from __future__ import annotations

from pathlib import Path

from lsp_helpers import RecordingClient, codes, open_doc, replace_all, wait_until

from indirect_project import JOBS, LIMITS, SETTINGS


async def test_editing_a_module_two_imports_away_updates_the_document(
    client: RecordingClient, tmp_path: Path
) -> None:
    (tmp_path / "settings.py").write_text(SETTINGS, encoding="utf-8")
    jobs = open_doc(client, tmp_path / "jobs.py", JOBS)
    limits = open_doc(client, tmp_path / "limits.py", LIMITS.format(value=8))

    def latest() -> list[str] | None:
        history = client.published.get(jobs, [])
        return codes(list(history[-1].diagnostics)) if history else None

    await wait_until(lambda: latest() == [])
    replace_all(client, limits, LIMITS.format(value=0), version=2)  # unsaved
    await wait_until(lambda: latest() == ["ES109"])
    replace_all(client, limits, LIMITS.format(value=4), version=3)
    await wait_until(lambda: latest() == [])


async def test_an_edit_while_the_importer_is_still_analysed_reaches_it(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    """The importer's findings are out but its analysis is still making its previews (slowed
    by the instrumented server) when the module two imports away changes: it must be analysed
    again, since what it read may be the old text (it was left with the old result)."""
    client = faulty_client
    (tmp_path / "settings.py").write_text(SETTINGS, encoding="utf-8")
    jobs = open_doc(client, tmp_path / "jobs.py", JOBS + "# test: slow-summaries=3\n")
    limits = open_doc(client, tmp_path / "limits.py", LIMITS.format(value=8))

    def latest() -> list[str] | None:
        history = client.published.get(jobs, [])
        return codes(list(history[-1].diagnostics)) if history else None

    await wait_until(lambda: latest() == [])  # the findings; the previews take 3 s more
    replace_all(client, limits, LIMITS.format(value=0), version=2)  # unsaved
    await wait_until(lambda: latest() == ["ES109"])
