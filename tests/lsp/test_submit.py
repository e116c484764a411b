"""Submit evaluation (issue 4) through the language server, against the real NeMo Platform.

The session's platform comes from tests/platform_service.py (``nmp services run`` with a fresh
data dir, workspace ``evalsubmit-test``, taskset ``smoke``). No mock: the jobs are real, and the
target they carry is compared with what the real SDK derives for the same runner.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import pytest_lsp
from lsp_helpers import (
    CONFIG,
    RecordingClient,
    open_doc,
    published,
    settings,
    vscode_capabilities,
    wait_until,
)
from lsprotocol import types
from notebook_helpers import cell_diagnostics, open_notebook

from platform_service import PlatformService, load_local_platform, sdk_runner_target

pytestmark = [pytest.mark.platform, pytest.mark.timeout(600)]

RUNNER_CONFIG = {
    "agent": "simple_agent",
    "agent_config": "configs/simple_agent.yaml",
    "resources_server": "mcqa",
    "concurrency": 2,
    "startup_timeout_s": 120,
    "hydra_params": {"temperature": 0.2, "seeds": [0, 7, 14]},
    "env_vars": {"LOG_LEVEL": "info"},
}


def job_source(service: PlatformService, *, tasks: str | None) -> str:
    call = (
        f"job = client.evaluator.submit(tasks=TasksetRef({tasks!r}), target=runner)\n"
        if tasks is not None
        else ""
    )
    return (
        "from nemo_evaluator.api.schemas import TasksetRef\n"
        "from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, "
        "GymRuntimeConfig\n"
        "from nemo_platform import NeMoPlatform\n\n"
        f"client = NeMoPlatform(workspace={service.workspace!r})\n"
        "cfg = GymRuntimeConfig(\n"
        '    agent="simple_agent",\n'
        '    agent_config="configs/simple_agent.yaml",\n'
        '    resources_server="mcqa",\n'
        "    concurrency=2,\n"
        "    startup_timeout_s=120,\n"
        '    hydra_params={"temperature": 0.2, "seeds": [s * 7 for s in range(3)]},\n'
        '    env_vars={"LOG_LEVEL": "info"},\n'
        ")\n"
        "runner = GymAgentTaskRunner(config=cfg)\n" + call
    )


def sdk_target(service: PlatformService) -> dict[str, Any]:
    return sdk_runner_target(service, RUNNER_CONFIG)


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def platform_settings(service: PlatformService, **platform: Any) -> dict[str, Any]:
    values = {"baseUrl": service.base_url, "pollIntervalS": 0.5, **platform}
    return settings(platform=values)


@pytest_lsp.fixture(config=CONFIG)
async def submit_client(
    lsp_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> AsyncIterator[RecordingClient]:
    lsp_client.set_configuration(platform_settings(platform_service), section="evalsubmit")
    folder = types.WorkspaceFolder(uri=tmp_path.as_uri(), name=tmp_path.name)
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=vscode_capabilities(pull=False), workspace_folders=[folder]
        )
    )
    yield lsp_client
    await lsp_client.shutdown_session()


def use_settings(client: RecordingClient, values: dict[str, Any]) -> None:
    client.set_configuration(values, section="evalsubmit")
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={}))


async def submit_actions(client: RecordingClient, uri: str, line: int) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(
                start=types.Position(line=line, character=10),
                end=types.Position(line=line, character=10),
            ),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction) and a.command]


async def execute(client: RecordingClient, command: types.Command, token: str | None = None) -> Any:
    if token is not None:
        client.progress_reports.setdefault(token, [])
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(
            command=command.command, arguments=command.arguments, work_done_token=token
        )
    )


def get_job(service: PlatformService, name: str) -> dict[str, Any]:
    jobs = f"/apis/evaluator/v2/workspaces/{service.workspace}/agent-evaluate/jobs"
    url = f"{service.base_url}{jobs}/{name}"
    response = httpx.get(url, timeout=30)
    response.raise_for_status()
    return response.json()  # type: ignore[no-any-return]


async def test_code_action_submits_and_follows_to_the_end(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    text = job_source(service, tasks=service.taskset)
    uri = open_doc(client, tmp_path / "job.py", text)
    assert await published(client, uri, 1) == []
    submit_line = text.count("\n") - 1
    (action,) = await submit_actions(client, uri, submit_line)
    assert action.title == "Submit evaluation" and action.command is not None
    assert action.command.command == "evalsubmit.submit"
    assert list(action.command.arguments or []) == [
        {"uri": uri, "line": submit_line, "character": 6, "tasks": service.taskset}
    ]
    result = await execute(client, action.command, token="submit-1")
    assert result["submitted"] is True
    name, status = result["name"], result["status"]
    # the gym CLI is absent where the platform runs jobs: the job ends in `error`
    assert status == "error"
    job = get_job(service, name)
    assert job["spec"]["target"] == sdk_target(service)
    assert job["status"] == "error"
    final = client.messages[-1]
    assert final.type == types.MessageType.Error
    assert name in final.message and "error" in final.message and result["url"] in final.message
    reports = client.progress_reports["submit-1"]
    assert isinstance(reports[0], types.WorkDoneProgressBegin)
    assert isinstance(reports[-1], types.WorkDoneProgressEnd)
    messages = [r.message for r in reports if isinstance(r, types.WorkDoneProgressReport)]
    assert any(m and "submitting job" in m for m in messages)
    assert any((m and m.endswith("error")) or "error:" in (m or "") for m in messages)


async def test_code_lens_on_the_runner_with_default_taskset(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    # no submit() in this file: the workspace comes from the settings, the taskset from
    # defaultTaskset (the VS Code client would have asked)
    values = platform_settings(service, workspace=service.workspace)
    use_settings(client, {**values, "defaultTaskset": service.taskset})
    text = job_source(service, tasks=None)
    uri = open_doc(client, tmp_path / "job.py", text)
    await published(client, uri, 1)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    assert lenses is not None
    (lens,) = lenses
    assert lens.command is not None and lens.command.title == "▶ Submit evaluation"
    assert lens.range.start.line == text.count("\n") - 1
    assert lens.command.arguments is not None and lens.command.arguments[0]["tasks"] is None
    result = await execute(client, lens.command)
    assert result["submitted"] is True
    assert result["workspace"] == service.workspace
    job = get_job(service, result["name"])
    assert job["spec"]["target"] == sdk_target(service)
    assert [t["id"] for t in job["spec"]["tasks"]] == list(service.tasks)  # smoke, resolved


async def lenses_of(client: RecordingClient, uri: str) -> list[types.CodeLens]:
    found = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    return list(found or [])


async def test_code_lens_only_where_submittable_and_the_setting_turns_them_off(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    good = job_source(service, tasks=service.taskset)
    # A second experiment in the same module whose runner config is refused (ES107): no lens.
    bad = (
        "\n\ndef second_experiment() -> None:\n"
        "    cfg2 = GymRuntimeConfig(\n"
        '        agent="simple_agent",\n'
        '        agent_config="configs/simple_agent.yaml",\n'
        '        resources_server="mcqa",\n'
        '        hydra_params={"seeds": (s * 7 for s in range(3))},\n'
        "    )\n"
        "    runner2 = GymAgentTaskRunner(config=cfg2)\n"
        f"    client.evaluator.submit(tasks=TasksetRef({service.taskset!r}), target=runner2)\n"
    )
    text = good + bad
    uri = open_doc(client, tmp_path / "experiments.py", text)
    assert "ES107" in [d.code for d in await published(client, uri, 1)]
    lines = [lens.range.start.line for lens in await lenses_of(client, uri)]
    good_call = good.count("\n") - 1
    assert good_call in lines
    assert all(line < good.count("\n") for line in lines)  # none in second_experiment()

    use_settings(client, {**platform_settings(service), "codeLens": {"enable": False}})
    for _ in range(100):  # the server pulls the changed settings asynchronously
        if not await lenses_of(client, uri):
            break
        await asyncio.sleep(0.05)
    assert await lenses_of(client, uri) == []
    assert "ES107" in [d.code for d in client.published[uri][-1].diagnostics]  # still checked


async def test_missing_taskset(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    text = job_source(service, tasks=f"{service.workspace}/no-such-taskset")
    uri = open_doc(client, tmp_path / "job.py", text)
    await published(client, uri, 1)
    (action,) = await submit_actions(client, uri, text.count("\n") - 1)
    assert action.command is not None
    result = await execute(client, action.command)
    assert result["submitted"] is False
    assert "no-such-taskset" in result["reason"]
    assert client.messages[-1].type == types.MessageType.Error


async def test_platform_down(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    use_settings(client, platform_settings(service, baseUrl=closed_port_url()))
    text = job_source(service, tasks=service.taskset)
    uri = open_doc(client, tmp_path / "job.py", text)
    await published(client, uri, 1)
    (action,) = await submit_actions(client, uri, text.count("\n") - 1)
    assert action.command is not None
    result = await execute(client, action.command)
    assert result["submitted"] is False
    assert "refused" in result["reason"].lower()
    assert "nmp" in result["reason"] or "start" in result["reason"].lower()


async def test_invalid_runner_refused_before_any_request(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    # nothing listens there: any HTTP request would fail with "connection refused"
    use_settings(client, platform_settings(service, baseUrl=closed_port_url()))
    text = job_source(service, tasks=service.taskset).replace(
        '"seeds": [s * 7 for s in range(3)]', '"seeds": (s * 7 for s in range(3))'
    )
    uri = open_doc(client, tmp_path / "job.py", text)
    assert [d.code for d in await published(client, uri, 1)] == ["ES107"]
    assert await submit_actions(client, uri, text.count("\n") - 1) == []  # not offered
    command = types.Command(
        title="submit",
        command="evalsubmit.submit",
        arguments=[{"uri": uri, "line": text.count("\n") - 1, "character": 6, "tasks": None}],
    )
    result = await execute(client, command)
    assert result["submitted"] is False
    assert "ES107" in result["reason"] and "generator" in result["reason"]
    assert "refused" not in result["reason"].lower() or "SDK" in result["reason"]


async def test_cancel_offers_to_cancel_the_job(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    use_settings(client, platform_settings(service, pollIntervalS=5.0))
    text = job_source(service, tasks=service.taskset)
    uri = open_doc(client, tmp_path / "job.py", text)
    await published(client, uri, 1)
    (action,) = await submit_actions(client, uri, text.count("\n") - 1)
    assert action.command is not None
    client.message_answers.append("Cancel the job")
    pending = asyncio.ensure_future(execute(client, action.command, token="submit-cancel"))
    await wait_until(
        lambda: any(
            isinstance(r, types.WorkDoneProgressReport) and "job " in (r.message or "")
            for r in client.progress_reports.get("submit-cancel", [])
        ),
        timeout=120,
    )
    client.window_work_done_progress_cancel(
        types.WorkDoneProgressCancelParams(token="submit-cancel")
    )
    result = await pending
    assert result["submitted"] is True
    (question,) = client.message_requests
    assert result["name"] in question.message
    status = get_job(service, result["name"])["status"]
    assert status in {"cancelling", "cancelled", "error"}
    assert any("cancel" in m.message.lower() for m in client.messages)


def command(command_id: str, **arg: Any) -> types.Command:
    return types.Command(title=command_id, command=command_id, arguments=[arg])


async def test_tasksets_and_platform_of_the_codes_workspace(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    text = job_source(service, tasks=service.taskset)  # no workspace in the settings
    uri = open_doc(client, tmp_path / "job.py", text)
    await published(client, uri, 1)
    runner = text.splitlines().index("runner = GymAgentTaskRunner(config=cfg)")
    listed = await execute(
        client, command("evalsubmit.listTasksets", uri=uri, line=runner, character=0)
    )
    assert listed["workspace"] == service.workspace
    assert listed["workspaceSource"] == "the code"
    assert service.taskset in [t["ref"] for t in listed["tasksets"]]
    assert listed["suggested"] == service.taskset  # the TasksetRef written below the runner
    info = await execute(client, command("evalsubmit.platformInfo", uri=uri))
    assert info["workspace"] == service.workspace and info["workspaceSource"] == "the code"
    assert info["baseUrl"] == service.base_url
    assert info["baseUrlSource"] == "evalsubmit setting" and "reachable" not in info  # lazy


async def test_platform_info_tells_reachable_and_token_without_showing_it(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    uri = open_doc(client, tmp_path / "job.py", job_source(service, tasks=service.taskset))
    await published(client, uri, 1)
    info = await execute(client, command("evalsubmit.platformInfo", uri=uri, check=True))
    assert info["reachable"] is True and "reachError" not in info
    assert info["tokenSet"] is False

    down = closed_port_url()
    use_settings(client, platform_settings(service, baseUrl=down, token="s3cret-tok"))

    for _ in range(100):  # the server pulls the changed settings asynchronously
        info = await execute(client, command("evalsubmit.platformInfo", uri=uri, check=True))
        if info["baseUrl"] == down:
            break
        await asyncio.sleep(0.05)
    assert info["reachable"] is False
    assert "connection refused" in info["reachError"] and down in info["reachError"]
    assert "local_platform" not in info["reachError"]  # no advice about this repository's scripts
    assert info["tokenSet"] is True and info["tokenSource"] == "evalsubmit setting"
    assert "s3cret-tok" not in repr(info)


async def test_outcome_told_by_the_client_and_the_job_view(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    text = job_source(service, tasks=service.taskset)
    uri = open_doc(client, tmp_path / "job.py", text)
    await published(client, uri, 1)
    (action,) = await submit_actions(client, uri, text.count("\n") - 1)
    assert action.command is not None and action.command.arguments
    quiet = types.Command(
        title=action.command.title,
        command=action.command.command,
        arguments=[{**action.command.arguments[0], "clientReportsOutcome": True}],
    )
    result = await execute(client, quiet, token="submit-quiet")
    assert result["status"] == "error"
    assert "The 'gym' CLI was not found on PATH" in result["outcome"]["error"]
    # the client tells the outcome: no second notification from the server
    assert not [m for m in client.messages if "ended: error" in m.message]
    reports = client.progress_reports["submit-quiet"]
    said = [r.message for r in reports if isinstance(r, types.WorkDoneProgressReport)]
    assert not [m for m in said if m and "pending: Job is running" in m]

    job = await execute(client, command("evalsubmit.jobStatus", name=result["name"], uri=uri))
    assert job["status"] == "error" and job["workspace"] == service.workspace
    assert "The 'gym' CLI was not found on PATH" in job["cause"]
    assert job["target"] == get_job(service, result["name"])["spec"]["target"]
    assert job["created_at"] and job["url"] == result["url"]
    assert job["logs"] and all(line[:4].isdigit() for line in job["logs"])  # timestamped
    assert all("tasks" not in step for step in job["steps"])

    done = load_local_platform().complete_job(service.base_url, service.workspace, service.taskset)
    completed = await execute(client, command("evalsubmit.jobStatus", name=done, uri=uri))
    assert completed["status"] == "completed"
    assert completed["results"] == ["summary"]
    assert completed["result_summary"]["task_count"] == 2


async def test_other_editors_are_asked_for_the_taskset(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    client, service = submit_client, platform_service
    text = job_source(service, tasks=None)  # a runner, no submit(), no default taskset
    uri = open_doc(client, tmp_path / "job.py", text)
    await published(client, uri, 1)
    runner = text.splitlines().index("runner = GymAgentTaskRunner(config=cfg)")
    at = {"uri": uri, "line": runner, "character": 0, "tasks": None}
    # dismissed: not submitted, and nothing was sent
    result = await execute(client, command("evalsubmit.submit", **at))
    assert result["submitted"] is False and "no taskset" in result["reason"]
    (question,) = client.message_requests
    assert service.workspace in question.message
    assert service.taskset in [a.title for a in question.actions or []]
    # answered: submitted with that taskset
    client.message_answers.append(service.taskset)
    result = await execute(client, command("evalsubmit.submit", **at))
    assert result["submitted"] is True and result["workspace"] == service.workspace
    job = get_job(service, result["name"])
    assert [t["id"] for t in job["spec"]["tasks"]] == list(service.tasks)


async def test_submit_from_a_notebook_cell(
    submit_client: RecordingClient, tmp_path: Path, platform_service: PlatformService
) -> None:
    """The lens of a submit() call in a notebook cell (its runner defined two cells above)
    submits the job; the command's place is the cell and a position in it (issue 27)."""
    client, service = submit_client, platform_service
    submit = f"job = client.evaluator.submit(tasks=TasksetRef({service.taskset!r}), target=runner)"
    cells = [
        ("code", "%pip install -q nemo-evaluator-sdk nemo-platform"),
        ("markdown", "# The runner"),
        ("code", job_source(service, tasks=None).rstrip("\n")),
        ("code", "!ls configs/"),
        ("markdown", "Submit it:"),
        ("code", f"print('submitting')\n{submit}"),
    ]
    nb = open_notebook(client, tmp_path / "submit.ipynb", cells)
    assert await cell_diagnostics(client, nb.cell(5)) == []
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=nb.cell(5)))
    )
    lens = next(iter(lenses or []))
    assert lens.range.start.line == 1
    assert lens.command is not None and lens.command.arguments is not None
    assert lens.command.arguments[0]["uri"] == nb.cell(5)
    result = await execute(client, lens.command)
    assert result["submitted"] is True, result
    job = get_job(service, result["name"])
    assert job["spec"]["target"] == sdk_target(service)
