"""The request sent to the platform holds only the derived spec and the job name: no source
text, no file path, no setting, and the token only in the Authorization header."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Any

import httpx
import pytest

from evalsubmit.analysis import analyze_source
from evalsubmit.platform import (
    SPEC_DEFAULTS,
    PlatformClient,
    build_submission_body,
    new_job_name,
)
from platform_service import PlatformService

TOKEN = "tok-BODY-91c3e5a7"
SOURCE = """\
from nemo_evaluator.api.schemas import TasksetRef
from nemo_evaluator_sdk.agent_eval.runtimes.gym import GymAgentTaskRunner, GymRuntimeConfig
from nemo_platform import NeMoPlatform

SECRET_COMMENT = "source-only-marker-3b9d"
client = NeMoPlatform(workspace="qa")
runner = GymAgentTaskRunner(
    config=GymRuntimeConfig(
        agent="simple_agent",
        agent_config="configs/simple_agent.yaml",
        resources_server="mcqa",
        env_vars={"MODE": "smoke"},
    )
)
client.evaluator.submit(tasks=TasksetRef("qa/smoke"), target=runner)
"""


def derived_target(tmp_path: Path) -> dict[str, Any]:
    path = tmp_path / "job_source_file.py"
    report = analyze_source(SOURCE, path=path)
    preview = report.submits[0].target
    assert preview is not None and preview.submittable, preview
    assert preview.target is not None
    return preview.target


class Recording(httpx.AsyncBaseTransport):
    """Records each request (method, path, headers, body) and forwards it."""

    def __init__(self, inner: httpx.AsyncBaseTransport) -> None:
        self.inner = inner
        self.sent: list[httpx.Request] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.sent.append(request)
        return await self.inner.handle_async_request(request)

    async def aclose(self) -> None:
        await self.inner.aclose()


def check_body(request: httpx.Request, target: dict[str, Any], tasks: str, name: str) -> None:
    raw = request.content
    body = json.loads(raw)
    assert body == {"name": name, "spec": {"target": target, **SPEC_DEFAULTS, "tasks": tasks}}
    text = raw.decode()
    for absent in (TOKEN, "source-only-marker", "job_source_file", "GymRuntimeConfig", "import"):
        assert absent not in text, absent
    assert request.headers["Authorization"] == f"Bearer {TOKEN}"


async def test_the_body_holds_only_the_derived_spec_and_name(tmp_path: Path) -> None:
    target = derived_target(tmp_path)
    name = new_job_name()

    def answer(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        return httpx.Response(201, json={"name": body["name"], "spec": body["spec"]})

    transport = Recording(httpx.MockTransport(answer))
    async with PlatformClient("http://nmp.test", token=TOKEN, transport=transport) as client:
        job = await client.submit_job("qa", build_submission_body(target, "qa/smoke", name))
    assert job.name == name
    (request,) = transport.sent
    assert request.method == "POST"
    assert request.url.path == "/apis/evaluator/v2/workspaces/qa/agent-evaluate/jobs"
    check_body(request, target, "qa/smoke", name)


@pytest.mark.platform
async def test_the_real_platform_accepts_exactly_that_body(
    tmp_path: Path, platform_service: PlatformService
) -> None:
    target = derived_target(tmp_path)
    name = new_job_name()
    body = build_submission_body(target, platform_service.taskset, name)
    transport = Recording(httpx.AsyncHTTPTransport())
    async with PlatformClient(
        platform_service.base_url, token=TOKEN, transport=transport, timeout_s=60
    ) as client:
        job = await client.submit_job(platform_service.workspace, body)
        try:
            assert job.name == name
            assert job.target is not None and job.target["agent"] == "simple_agent"
            posts = [r for r in transport.sent if r.method == "POST"]
            assert len(posts) == 1
            check_body(posts[0], target, platform_service.taskset, name)
        finally:
            with contextlib.suppress(Exception):
                await client.cancel_job(platform_service.workspace, name)
