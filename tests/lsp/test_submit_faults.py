"""Submit evaluation through the real server against a platform on a real socket that is slow,
hostile or misconfigured (tests/robustness/fault_server.py): unwanted jobs, hangs, silence.

* ``$/cancelRequest`` before the POST: nothing is sent. After the POST: following stops, the
  user learns that the job exists and is offered to cancel it on the platform.
* Settings that cannot be used (a port of 80800, ``http://[::1``, a non-ASCII token) answer
  every command with a message naming the setting, never ``null``.
* A platform that drips its answer is abandoned at ``timeoutS``.
* A token bound for another machine over plain ``http://`` is warned about first.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from lsp_helpers import (
    HEADER,
    RecordingClient,
    make_client,
    open_doc,
    published,
    settings,
    vscode_capabilities,
    wait_until,
)
from lsprotocol import types

from robustness.fault_server import FaultPlatform

SERVER = ["-P", "-m", "evalsubmit.lsp"]
JOB = HEADER + 'job = client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)\n'
SUBMIT_LINE = JOB.count("\n") - 1


@contextlib.asynccontextmanager
async def serving(root: Path, **platform: Any) -> AsyncIterator[RecordingClient]:
    client = make_client()
    client.set_configuration(
        settings(platform={"pollIntervalS": 0.2, "workspace": "ws", **platform}),
        section="evalsubmit",
    )
    await client.start_io(sys.executable, *SERVER, cwd=str(root))
    try:
        folder = types.WorkspaceFolder(uri=root.as_uri(), name=root.name)
        await client.initialize_session(
            types.InitializeParams(
                capabilities=vscode_capabilities(pull=False), workspace_folders=[folder]
            )
        )
        yield client
        await asyncio.wait_for(client.shutdown_session(), 30)
    finally:
        with contextlib.suppress(Exception):
            await client.stop()  # type: ignore[no-untyped-call]


def submit_params(uri: str, token: str | None = None) -> types.ExecuteCommandParams:
    arguments = [{"uri": uri, "line": SUBMIT_LINE, "character": 6, "tasks": "ws/smoke"}]
    return types.ExecuteCommandParams(
        command="evalsubmit.submit", arguments=arguments, work_done_token=token
    )


async def cancel_after(client: RecordingClient, uri: str, msg_id: str, until: Any) -> Any:
    """Send the submit as request ``msg_id``, cancel it once ``until()`` holds, and return the
    request's outcome (the exception pygls answers with)."""
    client.progress_reports.setdefault(msg_id, [])
    pending = asyncio.ensure_future(
        client.protocol.send_request_async(
            types.WORKSPACE_EXECUTE_COMMAND, submit_params(uri, token=msg_id), msg_id=msg_id
        )
    )
    await wait_until(until, timeout=30)
    client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
    try:
        return await asyncio.wait_for(pending, 10)
    except Exception as error:
        return error


async def open_job(client: RecordingClient, root: Path) -> str:
    uri = open_doc(client, root / "job.py", JOB)
    assert await published(client, uri, 1) == []
    return uri


async def test_cancel_before_the_post_sends_nothing(tmp_path: Path) -> None:
    async with (
        FaultPlatform("ok", delay_s=0, get_delay_s=2.0) as platform,
        serving(tmp_path, baseUrl=platform.base_url) as client,
    ):
        uri = await open_job(client, tmp_path)
        outcome = await cancel_after(client, uri, "submit-early", lambda: platform.count("GET") > 0)
        assert "cancel" in repr(outcome).lower()
        await asyncio.sleep(3)  # the taskset answer arrives meanwhile: still no POST
        assert platform.count("POST") == 0
        assert any("nothing was sent" in m.message for m in client.messages)
        reports = client.progress_reports.get("submit-early", [])
        assert reports and isinstance(reports[-1], types.WorkDoneProgressEnd)


async def test_cancel_after_the_post_says_the_job_exists_and_offers_to_cancel_it(
    tmp_path: Path,
) -> None:
    async with (
        FaultPlatform("ok", delay_s=1.5) as platform,
        serving(tmp_path, baseUrl=platform.base_url) as client,
    ):
        uri = await open_job(client, tmp_path)
        client.message_answers.append("Cancel the job")
        await cancel_after(client, uri, "submit-late", lambda: platform.count("POST") > 0)
        await wait_until(lambda: client.message_requests, timeout=30)
        (question,) = client.message_requests
        (name,) = platform.jobs
        assert name in question.message and "exists on the platform" in question.message
        await wait_until(lambda: platform.jobs[name]["status"] == "cancelled", timeout=30)
        assert platform.count("POST") == 2  # the job, then its cancel: never a second job
        polls = sum(1 for _, path, *_ in platform.requests if path.endswith("/status"))
        await asyncio.sleep(1)
        assert sum(1 for _, p, *_ in platform.requests if p.endswith("/status")) == polls
        reports = client.progress_reports.get("submit-late", [])
        assert reports and isinstance(reports[-1], types.WorkDoneProgressEnd)


async def test_cancel_while_following_stops_following(tmp_path: Path) -> None:
    def status_polls() -> int:
        return sum(1 for _, path, *_ in platform.requests if path.endswith("/status"))

    async with (
        FaultPlatform("ok", delay_s=0) as platform,
        serving(tmp_path, baseUrl=platform.base_url) as client,
    ):
        uri = await open_job(client, tmp_path)
        client.message_answers.append("Keep it running")
        await cancel_after(client, uri, "submit-follow", lambda: status_polls() >= 2)
        await wait_until(lambda: client.message_requests, timeout=30)
        await asyncio.sleep(0.5)
        polls = status_polls()
        await asyncio.sleep(1.5)  # pollIntervalS is 0.2: a live follower would poll ~7 times
        assert status_polls() == polls
        (name,) = platform.jobs
        assert platform.jobs[name]["status"] == "active"  # kept, as answered
        assert any("keeps running" in m.message for m in client.messages)


@pytest.mark.parametrize(
    ("platform", "words"),
    [
        ({"baseUrl": "http://127.0.0.1:80800"}, ("evalsubmit.platform.baseUrl", "port 80800")),
        ({"baseUrl": "http://[::1"}, ("evalsubmit.platform.baseUrl", "not a valid URL")),
        (
            {"baseUrl": "http://127.0.0.1:9", "token": "t\u00f6ken-123456"},
            ("evalsubmit.platform.token", "non-ASCII"),
        ),
    ],
)
async def test_unusable_settings_answer_every_command_clearly(
    tmp_path: Path, platform: dict[str, str], words: tuple[str, ...]
) -> None:
    async with serving(tmp_path, **platform) as client:
        uri = await open_job(client, tmp_path)
        answers = [
            await client.workspace_execute_command_async(submit_params(uri)),
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(command="evalsubmit.listTasksets")
            ),
            await client.workspace_execute_command_async(
                types.ExecuteCommandParams(
                    command="evalsubmit.jobStatus", arguments=[{"name": "evalsubmit-x"}]
                )
            ),
        ]
        info = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="evalsubmit.debugInfo")
        )
    texts = [
        answers[0]["reason"],
        answers[1]["error"],
        answers[2]["error"],
        info["platform"]["problem"],
    ]
    for text in texts:
        for word in words:
            assert word in text, text
        assert "t\u00f6ken" not in text


async def test_a_dripping_platform_is_abandoned_at_the_timeout(tmp_path: Path) -> None:
    async with (
        FaultPlatform("drip") as platform,
        serving(tmp_path, baseUrl=platform.base_url, timeoutS=1) as client,
    ):
        uri = await open_job(client, tmp_path)
        started = time.monotonic()
        listed = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="evalsubmit.listTasksets")
        )
        status = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(
                command="evalsubmit.jobStatus", arguments=[{"name": "evalsubmit-x"}]
            )
        )
        submitted = await client.workspace_execute_command_async(submit_params(uri))
        seconds = time.monotonic() - started
    for text in (listed["error"], status["error"], submitted["reason"]):
        assert "did not answer in time (1 s" in text and "evalsubmit.platform.timeoutS" in text
    assert platform.count("POST") == 0  # the taskset lookup timed out: nothing was posted
    assert seconds < 10, seconds


def non_loopback_address() -> str | None:
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.250", 9))  # no packet is sent: this only picks a route
            address = str(probe.getsockname()[0])
        with socket.socket() as bindable:
            bindable.bind((address, 0))
    except OSError:
        return None
    return None if address.startswith("127.") else address


async def test_a_token_over_plain_http_to_another_machine_is_warned_about_first(
    tmp_path: Path,
) -> None:
    address = non_loopback_address()
    if address is None:
        pytest.skip("this machine has no non-loopback IPv4 address to listen on")
    async with (
        FaultPlatform("ok", delay_s=0, host=address) as platform,
        serving(tmp_path, baseUrl=platform.base_url, token="tok-PLAIN-123456") as client,
    ):
        listed = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="evalsubmit.listTasksets")
        )
        assert [t["name"] for t in listed["tasksets"]] == ["smoke"]
        warnings = [m for m in client.messages if m.type == types.MessageType.Warning]
        assert any("unencrypted" in m.message and address in m.message for m in warnings)
        assert all("tok-PLAIN" not in m.message for m in client.messages)
