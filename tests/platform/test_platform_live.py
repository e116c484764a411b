"""Against the real NeMo Platform started by the session fixture (no mocks)."""

from __future__ import annotations

import asyncio
import secrets
from dataclasses import dataclass
from typing import Any

import pytest

from evalsubmit.platform import (
    Job,
    PlatformClient,
    PlatformError,
    PlatformErrorKind,
    build_submission_body,
    follow_job,
    job_outcome,
    new_job_name,
)
from platform_service import PlatformService, free_port, load_local_platform

pytestmark = pytest.mark.platform
GYM_MISSING = "The 'gym' CLI was not found on PATH."


def gym_target(**changes: Any) -> dict[str, Any]:
    """A full Gym wire target (every default filled in, as the SDK sends it)."""
    target: dict[str, Any] = {
        "kind": "gym",
        "environment": None,
        "agent": "simple_agent",
        "agent_config": "configs/simple_agent.yaml",
        "resources_server": "mcqa",
        "model_type": "inference_provider",
        "bind_resources_server": True,
        "hydra_params": {"policy": {"temperature": 0.2}, "ids": [1, 2, 3]},
        "env_vars": {"MODE": "smoke"},
        "agent_ref_name": None,
        "env_secrets": {},
        "num_repeats": 1,
        "concurrency": 4,
        "startup_timeout_s": 120.0,
        "collection_timeout_s": None,
        "shutdown_grace_s": 30.0,
        "reward_key": "reward",
    }
    target.update(changes)
    return target


def client_for(service: PlatformService, **kwargs: Any) -> PlatformClient:
    kwargs.setdefault("timeout_s", 30.0)
    return PlatformClient(service.base_url, **kwargs)


@dataclass(frozen=True)
class Submitted:
    body: dict[str, Any]
    job: Job


@pytest.fixture(scope="module")
def submitted(platform_service: PlatformService) -> Submitted:
    """One real job, submitted by the first test of this module and followed by the last one,
    so that it runs while the other tests do."""
    body = build_submission_body(gym_target(), platform_service.taskset, new_job_name())

    async def submit() -> Job:
        async with client_for(platform_service) as client:
            return await client.submit_job(platform_service.workspace, body)

    return Submitted(body, asyncio.run(submit()))


async def test_submit_then_get_shows_the_same_target(
    platform_service: PlatformService, submitted: Submitted
) -> None:
    body, job = submitted.body, submitted.job
    assert job.name == body["name"]
    assert job.status == "created"
    async with client_for(platform_service) as client:
        stored = await client.get_job(platform_service.workspace, job.name)
        assert stored.target == body["spec"]["target"] == gym_target()
        assert isinstance(stored.spec.get("tasks"), list) and len(stored.spec["tasks"]) == 2

        # The same fresh name and target again (e.g. a proxy retry): 409 -> GET, same job.
        again = await client.submit_job(platform_service.workspace, body)
        assert again.id == job.id


async def test_taskset_lookup(platform_service: PlatformService) -> None:
    ws = platform_service.workspace
    async with client_for(platform_service) as client:
        taskset = await client.get_taskset(ws, "smoke")
        assert taskset.name == "smoke" and len(taskset.tasks) == 2
        assert (await client.get_taskset("default", platform_service.taskset)).name == "smoke"
        assert (await client.get_taskset(ws, "smoke#latest")).revision == 1
        assert "smoke" in [t.name for t in await client.list_tasksets(ws)]

        with pytest.raises(PlatformError) as info:
            await client.get_taskset(ws, "no-such-taskset")
        assert info.value.kind is PlatformErrorKind.NOT_FOUND
        assert f"Taskset not found: {ws}/no-such-taskset" in info.value.message

        with pytest.raises(PlatformError) as info:
            await client.get_taskset(ws, "smoke#v9")
        assert info.value.kind is PlatformErrorKind.NOT_FOUND  # 404 on the revisions route
        assert "no revision tagged 'v9' (known tags: latest)" in info.value.message


@pytest.mark.parametrize(
    ("tasks", "workspace_suffix"),
    [("evalsubmit-test/no-such-taskset", ""), ("smoke", "-missing")],
    ids=["missing-taskset", "missing-workspace"],
)
async def test_missing_taskset_or_workspace_is_a_422_message(
    platform_service: PlatformService, tasks: str, workspace_suffix: str
) -> None:
    workspace = platform_service.workspace + workspace_suffix
    body = build_submission_body(gym_target(), tasks, new_job_name())
    async with client_for(platform_service) as client:
        with pytest.raises(PlatformError) as info:
            await client.submit_job(workspace, body)
    err = info.value
    assert err.kind is PlatformErrorKind.INVALID and err.status_code == 422
    assert "refused to submit the job" in err.message
    missing = tasks.split("/")[-1]
    assert missing in err.message and workspace in err.message, err.message


async def test_invalid_target_is_a_short_422_message(platform_service: PlatformService) -> None:
    body = build_submission_body(
        gym_target(num_repeats=0), platform_service.taskset, new_job_name()
    )
    async with client_for(platform_service) as client:
        with pytest.raises(PlatformError) as info:
            await client.submit_job(platform_service.workspace, body)
    err = info.value
    assert err.status_code == 422
    assert "num_repeats" in err.message and "greater than or equal to 1" in err.message
    assert "more error" in err.message  # the other union branches are counted, not listed
    assert len(err.message) < 900


async def test_platform_down_says_connection_refused() -> None:
    async with PlatformClient(f"http://127.0.0.1:{free_port()}", timeout_s=5) as client:
        with pytest.raises(PlatformError) as info:
            await client.submit_job("default", build_submission_body(gym_target(), "s", "ab"))
    assert info.value.kind is PlatformErrorKind.CONNECTION_REFUSED
    assert "local_platform" not in info.value.message
    assert "nmp services run" in info.value.message


async def test_duplicate_name_is_a_409_message_then_cancel(
    platform_service: PlatformService,
) -> None:
    name = f"dup-{secrets.token_hex(4)}"
    body = build_submission_body(gym_target(), platform_service.taskset, name)
    ws = platform_service.workspace
    async with client_for(platform_service) as client:
        job = await client.submit_job(ws, body)
        with pytest.raises(PlatformError) as info:
            await client.submit_job(ws, body)
        err = info.value
        assert err.kind is PlatformErrorKind.CONFLICT and err.status_code == 409
        assert f"A job named '{name}' already exists in workspace '{ws}'" in err.message

        cancelled = await client.cancel_job(ws, job.name)
        assert cancelled.name == job.name
        seen = [s.status async for s in follow_job(client, ws, job.name, 0.3)]
    assert seen[-1] == "cancelled", seen


async def test_invalid_name_is_explained(platform_service: PlatformService) -> None:
    spec = build_submission_body(gym_target(), platform_service.taskset, "ab")["spec"]
    async with client_for(platform_service) as client:
        with pytest.raises(PlatformError) as info:
            await client.submit_job(platform_service.workspace, {"name": "Bad_Name", "spec": spec})
    assert info.value.status_code == 409  # the platform reports an invalid name as a conflict
    assert "refused the job name 'Bad_Name'" in info.value.message


async def test_unknown_job_is_a_404_message(platform_service: PlatformService) -> None:
    async with client_for(platform_service) as client:
        with pytest.raises(PlatformError) as info:
            await client.get_status(platform_service.workspace, "no-such-job")
    assert info.value.kind is PlatformErrorKind.NOT_FOUND
    assert "Job 'no-such-job' not found" in info.value.message


async def test_follow_to_error_and_logs(
    platform_service: PlatformService, submitted: Submitted
) -> None:
    ws, job = platform_service.workspace, submitted.job
    async with client_for(platform_service) as client:
        seen = [s.status async for s in follow_job(client, ws, job.name, 0.5)]
        # The job really runs and fails: the gym CLI is not installed here.
        assert seen[-1] == "error", seen
        final = await client.get_status(ws, job.name)
        assert final.is_terminal and not final.succeeded

        # Logs are collected asynchronously: the traceback may land just after the status.
        outcome = await job_outcome(client, ws, final, log_lines=10, settle_s=20)
        logs = await client.get_logs(ws, job.name, tail=50)
    assert logs and len(logs) <= 50
    assert not any("\x1b[" in line for line in logs)
    assert any(GYM_MISSING in line for line in logs), logs[-5:]
    message = outcome.message()
    assert f"Job {job.name} (workspace {ws}) ended: error." in message
    assert "Platform: Job exited with code 1." in message
    assert f"Error: RuntimeError: {GYM_MISSING}" in message
    assert client.job_url(ws, job.name) in message
    assert 0 < len(outcome.log_tail) <= 10


async def test_completed_job_results(platform_service: PlatformService) -> None:
    """A completed job with a summary, made with the platform's own APIs (scripts/
    local_platform.py complete-job: the local platform cannot run a Gym job to the end)."""
    service = platform_service
    name = load_local_platform().complete_job(service.base_url, service.workspace, service.taskset)
    async with client_for(service) as client:
        status = await client.get_status(service.workspace, name)
        assert status.status == "completed"
        assert await client.list_results(service.workspace, name) == ["summary"]
        summary = await client.get_result(service.workspace, name, "summary")
    assert summary["task_count"] == 2
    assert summary["scores"]["scores"][0]["name"] == "gym_reward.reward"
