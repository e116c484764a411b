"""A document's own findings are published before what its importers report into it.

runners.py defines a runner with a value the platform cannot take; job.py (on disk, not open)
imports and submits it, so the finding is reported in runners.py. job.py is slow to analyse
(``# test: slow-module``, instrumented_server.py): runners.py still gets its first diagnostics
at once, hover answers meanwhile, and the importer's finding follows in a second publish.
"""

from __future__ import annotations

import time
from pathlib import Path

from lsp_helpers import RecordingClient, codes, col_of, line_of, open_doc, replace_all, wait_until
from lsprotocol import types
from test_diagnostics import RUNNERS_LAMBDA, SUBMITTER

SLOW_S = 6.0
RUNNERS = RUNNERS_LAMBDA  # a lambda in hydra_params: job.py's submit reports it here
SLOW_SUBMITTER = SUBMITTER + f"# test: slow-module={SLOW_S}\n"


async def test_own_findings_first_then_the_importers(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_client
    (tmp_path / "job.py").write_text(SLOW_SUBMITTER, encoding="utf-8")
    started = time.monotonic()
    uri = open_doc(client, tmp_path / "runners.py", RUNNERS)

    def history() -> list[types.PublishDiagnosticsParams]:
        return client.published.get(uri, [])

    await wait_until(history)
    first_after = time.monotonic() - started
    assert first_after < SLOW_S - 2, f"first diagnostics after {first_after:.1f} s"
    assert (history()[0].version, codes(list(history()[0].diagnostics))) == (1, [])

    # Hover reads what is computed; it does not wait for the importers.
    position = types.Position(
        line=line_of(RUNNERS, "GymAgentTaskRunner(config"),
        character=col_of(RUNNERS, "GymAgentTaskRunner(config") + 2,
    )
    asked = time.monotonic()
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)
    )
    assert hover is not None
    assert time.monotonic() - asked < 2.0
    assert time.monotonic() - started < SLOW_S, "the test machine is too slow to tell"

    await wait_until(lambda: codes(list(history()[-1].diagnostics)) == ["ES107"])
    assert [(p.version, codes(list(p.diagnostics))) for p in history()] == [
        (1, []),
        (1, ["ES107"]),
    ]

    # An edit: the importer is analysed again (it read this module), and its finding stays:
    # the forward result waits for the complete one, no publish lacks it.
    count = len(history())
    replace_all(client, uri, RUNNERS + "\nother = 1\n", version=2)
    await wait_until(lambda: any(p.version == 2 for p in history()[count:]))
    await wait_until(lambda: codes(list(history()[-1].diagnostics)) == ["ES107"], timeout=5)
    assert [(p.version, codes(list(p.diagnostics))) for p in history()[count:]] == [(2, ["ES107"])]


async def test_pull_gets_the_importers_findings_after_a_refresh_and_after_an_edit(
    faulty_pull_client: RecordingClient, tmp_path: Path
) -> None:
    client = faulty_pull_client
    (tmp_path / "job.py").write_text(SLOW_SUBMITTER.replace(str(SLOW_S), "3"), encoding="utf-8")
    uri = open_doc(client, tmp_path / "runners.py", RUNNERS)

    async def pull(previous: str | None) -> types.RelatedFullDocumentDiagnosticReport:
        report = await client.text_document_diagnostic_async(
            types.DocumentDiagnosticParams(
                text_document=types.TextDocumentIdentifier(uri=uri), previous_result_id=previous
            )
        )
        assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
        return report

    refreshes = client.diagnostic_refresh_count
    asked = time.monotonic()
    first = await pull(None)
    assert time.monotonic() - asked < 2.0
    assert codes(list(first.items)) == []
    await wait_until(lambda: client.diagnostic_refresh_count > refreshes)
    second = await pull(first.result_id)
    assert codes(list(second.items)) == ["ES107"]
    # After an edit, the importer is analysed again (what it reports here depends on this
    # module's text: a line inserted above the value moves its finding). A pull waits for it a
    # bounded time; when it arrives later, a refresh follows and the next pull has it.
    refreshes = client.diagnostic_refresh_count
    replace_all(client, uri, RUNNERS + "\nother = 1\n", version=2)
    third = await pull(second.result_id)
    if codes(list(third.items)) != ["ES107"]:
        await wait_until(lambda: client.diagnostic_refresh_count > refreshes, timeout=30)
        third = await pull(third.result_id)
    assert codes(list(third.items)) == ["ES107"]


async def test_an_importers_finding_moves_with_its_line(
    faulty_client: RecordingClient, tmp_path: Path
) -> None:
    """The importer's analysis read this module: a line inserted above the value moves what it
    reports here (its cached result is not reused for the new text)."""
    client = faulty_client
    (tmp_path / "job.py").write_text(SUBMITTER, encoding="utf-8")
    uri = open_doc(client, tmp_path / "runners.py", RUNNERS)

    def lines_of_es107() -> list[int]:
        latest = client.published.get(uri, [])[-1:]
        return [d.range.start.line for p in latest for d in p.diagnostics if d.code == "ES107"]

    line = line_of(RUNNERS, '"hook"')
    await wait_until(lambda: lines_of_es107() == [line], timeout=30)
    replace_all(client, uri, "# a comment line\n" + RUNNERS, version=2)
    await wait_until(lambda: lines_of_es107() == [line + 1], timeout=30)
