"""Push and pull diagnostics, versions, close, syntax errors mid-edit, cross-file re-checks."""

from __future__ import annotations

from pathlib import Path

from lsp_helpers import (
    HEADER,
    RecordingClient,
    codes,
    col_of,
    find,
    line_of,
    open_doc,
    published,
    replace_all,
    wait_until,
)
from lsprotocol import types

from evalsubmit.analysis.rules import RULES

MIXED = HEADER + (
    "job = client.evaluator.submit(\n"
    '    tasks=TasksetRef("qa/smoke"), target=runner,\n'
    "    metric=metric,\n"
    ")\n"
)
ROW_OPTION = HEADER + (
    "job = client.evaluator.submit(\n"
    '    tasks=TasksetRef("qa/smoke"),\n'
    "    target=runner,\n"
    "    config=RunConfig(parallelism=16),\n"
    ")\n"
)
CLEAN = HEADER + 'job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n'


async def test_push_mixed_shape_at_submit_token(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "job.py", MIXED)
    diagnostics = await published(client, uri, 1)
    (es101,) = find(diagnostics, "ES101")
    assert es101.range.start.line == line_of(MIXED, "submit(")
    assert es101.range.start.character == col_of(MIXED, "submit(")
    assert es101.source == "evalsubmit"
    assert es101.severity == types.DiagnosticSeverity.Error
    assert es101.code_description is not None
    assert es101.code_description.href == RULES["ES101"].url
    assert isinstance(es101.data, dict) and "fixes" in es101.data


async def test_push_follows_versions(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "job.py", CLEAN)
    assert await published(client, uri, 1) == []
    replace_all(client, uri, ROW_OPTION, version=2)
    diagnostics = await published(client, uri, 2)
    (es102,) = find(diagnostics, "ES102")
    assert es102.range.start.line == line_of(ROW_OPTION, "config=RunConfig")
    replace_all(client, uri, CLEAN, version=3)
    assert await published(client, uri, 3) == []


async def test_rapid_edits_end_with_the_latest_version(
    client: RecordingClient, workspace: Path
) -> None:
    uri = open_doc(client, workspace / "job.py", CLEAN)
    await published(client, uri, 1)
    for version in range(2, 12):
        replace_all(client, uri, ROW_OPTION if version % 2 else CLEAN, version=version)
    assert codes(await published(client, uri, 11)) == ["ES102"]
    versions = [p.version for p in client.published[uri]]
    assert versions == sorted(versions), "an older result was published after a newer one"


async def test_close_clears(client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(client, workspace / "job.py", MIXED)
    assert find(await published(client, uri, 1), "ES101")
    count = len(client.published[uri])
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await wait_until(lambda: len(client.published[uri]) > count)
    assert list(client.published[uri][-1].diagnostics) == []


async def test_syntax_error_mid_edit_keeps_other_diagnostics(
    client: RecordingClient, workspace: Path
) -> None:
    text = ROW_OPTION + "\nclient.evaluator.submit(target=runner)\n"
    uri = open_doc(client, workspace / "job.py", text)
    assert codes(await published(client, uri, 1)) == ["ES102", "ES103"]
    broken = text + "\nx = client.evaluator.submit(tasks=\n"
    replace_all(client, uri, broken, version=2)
    # the statement being typed is named as not parsing (ES100), the others keep theirs
    assert sorted(codes(await published(client, uri, 2))) == ["ES100", "ES102", "ES103"]


async def test_pull_document_and_workspace(pull_client: RecordingClient, workspace: Path) -> None:
    uri = open_doc(pull_client, workspace / "job.py", MIXED)
    report = await pull_client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert isinstance(report, types.RelatedFullDocumentDiagnosticReport)
    assert codes(list(report.items)) == ["ES101"]
    assert report.items[0].source == "evalsubmit"
    again = await pull_client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            previous_result_id=report.result_id,
        )
    )
    assert isinstance(again, types.RelatedUnchangedDocumentDiagnosticReport)
    replace_all(pull_client, uri, CLEAN, version=2)
    fresh = await pull_client.text_document_diagnostic_async(
        types.DocumentDiagnosticParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            previous_result_id=report.result_id,
        )
    )
    assert isinstance(fresh, types.RelatedFullDocumentDiagnosticReport)
    assert list(fresh.items) == []
    workspace_report = await pull_client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    (item,) = workspace_report.items
    assert item.uri == uri and item.version == 2
    assert pull_client.published.get(uri) is None, "a pull client must not get pushes"


RUNNERS_BAD = (
    "from pathlib import Path\n"
    "from nemo_evaluator_sdk.agent_eval.runtimes.harbor_runtime import (\n"
    "    HarborAgentTaskRunner,\n"
    "    HarborRuntimeConfig,\n"
    ")\n\n"
    'runner = HarborAgentTaskRunner(config=HarborRuntimeConfig(jobs_dir=Path("runs")))\n'
)
RUNNERS_GOOD = (
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
    "GymRuntimeConfig\n\n"
    "runner = GymAgentTaskRunner(\n"
    '    config=GymRuntimeConfig(agent="a", agent_config="c.yaml", resources_server="mcqa")\n'
    ")\n"
)
SUBMITTER = (
    "from nemo_evaluator.api.schemas import TasksetRef\n"
    "from nemo_platform import NeMoPlatform\n\n"
    "from runners import runner\n\n"
    'client = NeMoPlatform(workspace="qa")\n'
    'client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n'
)


async def test_cross_file_recheck(client: RecordingClient, workspace: Path) -> None:
    runners_uri = open_doc(client, workspace / "runners.py", RUNNERS_BAD)
    await published(client, runners_uri, 1)
    job_uri = open_doc(client, workspace / "job.py", SUBMITTER)
    assert codes(await published(client, job_uri, 1)) == ["ES106"]
    count = len(client.published[job_uri])
    replace_all(client, runners_uri, RUNNERS_GOOD, version=2)  # unsaved: the overlay counts
    await published(client, runners_uri, 2)
    assert await published(client, job_uri, 1, after=count) == []
    count = len(client.published[job_uri])
    replace_all(client, runners_uri, RUNNERS_BAD, version=3)
    assert codes(await published(client, job_uri, 1, after=count)) == ["ES106"]


async def test_cross_file_recheck_pull_asks_refresh(
    pull_client: RecordingClient, workspace: Path
) -> None:
    runners_uri = open_doc(pull_client, workspace / "runners.py", RUNNERS_BAD)
    job_uri = open_doc(pull_client, workspace / "job.py", SUBMITTER)
    params = types.DocumentDiagnosticParams(text_document=types.TextDocumentIdentifier(uri=job_uri))
    first = await pull_client.text_document_diagnostic_async(params)
    assert isinstance(first, types.RelatedFullDocumentDiagnosticReport)
    assert codes(list(first.items)) == ["ES106"]
    refreshes = pull_client.diagnostic_refresh_count
    replace_all(pull_client, runners_uri, RUNNERS_GOOD, version=2)
    await wait_until(lambda: pull_client.diagnostic_refresh_count > refreshes)
    second = await pull_client.text_document_diagnostic_async(params)
    assert isinstance(second, types.RelatedFullDocumentDiagnosticReport)
    assert list(second.items) == []


async def test_watched_file_change_rechecks(client: RecordingClient, workspace: Path) -> None:
    (workspace / "runners.py").write_text(RUNNERS_BAD)
    job_uri = open_doc(client, workspace / "job.py", SUBMITTER)
    assert codes(await published(client, job_uri, 1)) == ["ES106"]
    count = len(client.published[job_uri])
    (workspace / "runners.py").write_text(RUNNERS_GOOD)
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[
                types.FileEvent(
                    uri=(workspace / "runners.py").as_uri(), type=types.FileChangeType.Changed
                )
            ]
        )
    )
    assert await published(client, job_uri, 1, after=count) == []


RUNNERS_LAMBDA = (
    "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
    "GymRuntimeConfig\n\n"
    "runner = GymAgentTaskRunner(config=GymRuntimeConfig(\n"
    '    agent="a", agent_config="c.yaml", resources_server="mcqa",\n'
    '    hydra_params={"hook": lambda r: r},\n'
    "))\n"
)
NOT_SUBMITTING = SUBMITTER.replace(
    'client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n', "print(runner)\n"
)


async def test_cross_file_value_reported_where_written(
    client: RecordingClient, workspace: Path
) -> None:
    """A bad value written in runners.py and submitted by job.py is reported in runners.py;
    editing job.py (so it no longer submits) re-checks runners.py."""
    runners_uri = open_doc(client, workspace / "runners.py", RUNNERS_LAMBDA)
    job_uri = open_doc(client, workspace / "job.py", SUBMITTER)
    assert await published(client, job_uri, 1) == []

    def latest(expected: list[str]) -> bool:
        history = client.published.get(runners_uri, [])
        return bool(history) and codes(list(history[-1].diagnostics)) == expected

    await wait_until(lambda: latest(["ES107"]))
    replace_all(client, job_uri, NOT_SUBMITTING, version=2)
    await wait_until(lambda: latest([]))
    replace_all(client, job_uri, SUBMITTER, version=3)
    await wait_until(lambda: latest(["ES107"]))
