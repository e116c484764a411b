"""Unit tests of the platform client with httpx.MockTransport: every error path, no duplicates."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from evalsubmit.platform import (
    JobStatus,
    PlatformClient,
    PlatformError,
    PlatformErrorKind,
    build_submission_body,
    extract_error,
    follow_job,
    job_outcome,
    new_job_name,
)

BASE = "http://nmp.test:8080"
WS = "ws1"
JOBS = f"/apis/evaluator/v2/workspaces/{WS}/agent-evaluate/jobs"
SECRET = "tok-SECRET-abc123"
TARGET = {
    "kind": "gym",
    "environment": None,
    "agent": "simple_agent",
    "agent_config": "c.yaml",
    "resources_server": "mcqa",
}

Handler = Callable[[httpx.Request], httpx.Response]
GYM_BRANCH = "function-after[_require_builtin_agent_config_without_environment(), GymRunnerTarget]"


def make_client(handler: Handler, **kwargs: Any) -> PlatformClient:
    kwargs.setdefault("lost_response_wait_s", 0.3)
    kwargs.setdefault("recover_poll_s", 0.05)
    return PlatformClient(BASE, transport=httpx.MockTransport(handler), **kwargs)


def job_json(name: str, target: dict[str, Any] | None = None, status: str = "created") -> Any:
    return {
        "id": "platform-job-1",
        "name": name,
        "workspace": WS,
        "status": status,
        "spec": {"target": target or TARGET, "tasks": [{"name": "t"}]},
        "something_new": {"extra": True},
    }


class FakePlatform:
    """A tiny in-memory job store behind a MockTransport; counts requests by method."""

    def __init__(self) -> None:
        self.jobs: dict[str, Any] = {}
        self.calls: list[tuple[str, str]] = []
        self.on_post: Callable[[httpx.Request, dict[str, Any]], httpx.Response] | None = None
        self.get_misses = 0  # GETs of a job answer 404 this many times first

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.calls.append((request.method, request.url.path))
        if request.method == "POST" and request.url.path == JOBS:
            body = json.loads(request.content)
            if self.on_post is not None:
                return self.on_post(request, body)
            return self.create(body)
        if request.method == "GET" and request.url.path.startswith(JOBS + "/"):
            name = request.url.path.rsplit("/", 1)[-1]
            if self.get_misses > 0:
                self.get_misses -= 1
                return httpx.Response(404, json={"detail": f"Job '{name}' not found."})
            if name in self.jobs:
                return httpx.Response(200, json=self.jobs[name])
            return httpx.Response(404, json={"detail": f"Job '{name}' not found."})
        return httpx.Response(500, json={"detail": "unexpected route"})

    def create(self, body: dict[str, Any]) -> httpx.Response:
        name = body["name"]
        if name in self.jobs:
            return httpx.Response(409, json={"detail": f"Job '{name}' already exists."})
        self.jobs[name] = job_json(name, body["spec"]["target"])
        return httpx.Response(201, json=self.jobs[name])

    def count(self, method: str) -> int:
        return sum(1 for m, _ in self.calls if m == method)


def body(name: str | None = None) -> dict[str, Any]:
    return build_submission_body(TARGET, "ws1/smoke", name or new_job_name())


# --------------------------------------------------------------------------- happy path


async def test_submit_sends_body_and_bearer_token() -> None:
    seen: list[httpx.Request] = []
    fake = FakePlatform()

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return fake(request)

    b = body()
    async with make_client(handler, token=SECRET) as client:
        job = await client.submit_job(WS, b)
    assert job.name == b["name"] and job.target == TARGET
    assert job.model_extra and job.model_extra["something_new"] == {"extra": True}
    assert seen[0].headers["Authorization"] == f"Bearer {SECRET}"
    assert json.loads(seen[0].content) == b
    assert SECRET not in repr(client)


async def test_no_authorization_header_without_token() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json={"data": [], "pagination": {"total_pages": 1}})

    async with make_client(handler) as client:
        await client.list_tasksets(WS)
    assert "Authorization" not in seen[0].headers


# --------------------------------------------------------------------------- error paths


def raising(exc: Exception) -> Handler:
    def handler(request: httpx.Request) -> httpx.Response:
        raise exc

    return handler


async def expect_error(handler: Handler, call: str = "get_job", **kw: Any) -> PlatformError:
    async with make_client(handler, **kw) as client:
        with pytest.raises(PlatformError) as info:
            if call == "get_job":
                await client.get_job(WS, "j1")
            elif call == "submit":
                await client.submit_job(WS, body("my-own-name"))
            elif call == "status":
                await client.get_status(WS, "j1")
    return info.value


async def test_connection_refused_says_how_to_start_a_platform() -> None:
    err = await expect_error(raising(httpx.ConnectError("[Errno 111] Connection refused")))
    assert err.kind is PlatformErrorKind.CONNECTION_REFUSED
    assert "local_platform" not in err.message  # this repository's script is not the user's
    assert "evalsubmit.platform.baseUrl" in err.message
    assert "nmp services run" in err.message
    assert BASE in err.message


async def test_other_connect_error() -> None:
    err = await expect_error(raising(httpx.ConnectError("Name or service not known")))
    assert err.kind is PlatformErrorKind.CONNECTION
    assert "Name or service not known" in err.message


async def test_timeout() -> None:
    err = await expect_error(raising(httpx.ReadTimeout("timed out")), timeout_s=1.5)
    assert err.kind is PlatformErrorKind.TIMEOUT
    assert "1.5 s" in err.message


@pytest.mark.parametrize(
    ("status", "kind", "words"),
    [
        (401, PlatformErrorKind.UNAUTHORIZED, "401 Unauthorized"),
        (403, PlatformErrorKind.FORBIDDEN, "403 Forbidden"),
    ],
)
async def test_auth_errors_never_echo_the_token(
    status: int, kind: PlatformErrorKind, words: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(status, json={"detail": f"bad token {SECRET}"})

    err = await expect_error(handler, token=SECRET)
    assert err.kind is kind and err.status_code == status
    assert words in err.message and "token" in err.message
    for text in (err.message, str(err), repr(err), str(err.detail), caplog.text):
        assert SECRET not in text


async def test_404_includes_detail() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(404, json={"detail": "Job 'j1' not found in workspace 'ws1'."})

    err = await expect_error(handler)
    assert err.kind is PlatformErrorKind.NOT_FOUND
    assert "Job 'j1' not found in workspace 'ws1'." in err.message
    assert err.detail == "Job 'j1' not found in workspace 'ws1'."


async def test_422_missing_taskset_detail() -> None:
    detail = "Taskset 'ws1/nope' not found in workspace 'ws1'"

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(422, json={"detail": detail})

    err = await expect_error(handler, call="submit")
    assert err.kind is PlatformErrorKind.INVALID and err.status_code == 422
    assert detail in err.message


async def test_422_long_pydantic_list_is_summarised() -> None:
    branches = [
        {"type": "missing", "loc": ["body", "spec", "target", f"Branch{i}", "x"], "msg": "Field"}
        for i in range(18)
    ]
    branches.insert(
        3,
        {
            "type": "greater_than_equal",
            "loc": ["body", "spec", "target", GYM_BRANCH, "num_repeats"],
            "msg": "Input should be greater than or equal to 1",
        },
    )

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(422, json={"detail": branches})

    err = await expect_error(handler, call="submit")
    assert "spec.target.num_repeats: Input should be greater than or equal to 1" in err.message
    assert "(and 18 more errors)" in err.message
    assert "Branch7" not in err.message
    assert len(err.message) < 900


async def test_409_duplicate_name() -> None:
    fake = FakePlatform()
    async with make_client(fake) as client:
        await client.submit_job(WS, body("my-own-name"))
        with pytest.raises(PlatformError) as info:
            await client.submit_job(WS, body("my-own-name"))
    err = info.value
    assert err.kind is PlatformErrorKind.CONFLICT and err.status_code == 409
    assert "A job named 'my-own-name' already exists in workspace 'ws1'" in err.message


async def test_409_for_an_invalid_name_explains_the_naming_rule() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(409, json={"detail": "conflicts with existing platform state"})

    async with make_client(handler) as client:
        with pytest.raises(PlatformError) as info:
            await client.submit_job(WS, {"name": "Bad_Name", "spec": body()["spec"]})
    assert info.value.kind is PlatformErrorKind.INVALID and info.value.status_code == 409
    assert "starts with a lowercase letter" in info.value.message


async def test_422_transform_prefix_is_dropped() -> None:
    detail = (
        "Failed to transform nemo-evaluator.agent-evaluate job input to output: Taskset "
        "reference 'ws1/nope' not found. Ensure a stored taskset named 'nope' exists."
    )

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(422, json={"detail": detail})

    err = await expect_error(handler, call="submit")
    assert err.message.endswith(
        "(422): Taskset reference 'ws1/nope' not found. Ensure a "
        "stored taskset named 'nope' exists."
    )


async def test_5xx() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(503, text="upstream down")

    err = await expect_error(handler)
    assert err.kind is PlatformErrorKind.SERVER and err.status_code == 503
    assert "server error" in err.message and "upstream down" in err.message


async def test_malformed_json() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html>proxy login</html>")

    err = await expect_error(handler)
    assert err.kind is PlatformErrorKind.BAD_RESPONSE
    assert "cannot read" in err.message


async def test_wrong_shape_json() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, json={"no": "name"})

    err = await expect_error(handler, call="status")
    assert err.kind is PlatformErrorKind.BAD_RESPONSE


# --------------------------------------------------------------------------- no duplicate jobs


@pytest.mark.parametrize(
    "lost",
    [
        httpx.ReadTimeout("read timed out"),
        httpx.RemoteProtocolError("Server disconnected without sending a response."),
        httpx.ReadError("Connection reset by peer"),
    ],
)
async def test_lost_response_is_checked_with_get_never_reposted(lost: Exception) -> None:
    fake = FakePlatform()

    def on_post(request: httpx.Request, b: dict[str, Any]) -> httpx.Response:
        fake.create(b)  # the server did create it...
        raise lost  # ...but the answer never arrived

    fake.on_post = on_post
    fake.get_misses = 2  # and it becomes visible only a moment later
    b = body()
    async with make_client(fake) as client:
        job = await client.submit_job(WS, b)
    assert job.name == b["name"]
    assert fake.count("POST") == 1
    assert len(fake.jobs) == 1


async def test_lost_response_and_job_absent_is_unknown_outcome_and_not_resent() -> None:
    fake = FakePlatform()

    def on_post(request: httpx.Request, b: dict[str, Any]) -> httpx.Response:
        raise httpx.ReadTimeout("read timed out")

    fake.on_post = on_post
    b = body()
    async with make_client(fake) as client:
        with pytest.raises(PlatformError) as info:
            await client.submit_job(WS, b)
        assert info.value.kind is PlatformErrorKind.UNKNOWN_OUTCOME
        assert b["name"] in info.value.message and "not sent again" in info.value.message
        # A second attempt with the same body (e.g. the user clicks again) only looks it up.
        fake.jobs[b["name"]] = job_json(b["name"])
        job = await client.submit_job(WS, b)
    assert job.name == b["name"]
    assert fake.count("POST") == 1


async def test_409_on_our_fresh_name_after_lost_response_returns_the_job() -> None:
    """A proxy that retried upstream: the first attempt created it, we see 409."""
    fake = FakePlatform()
    b = body()
    fake.create(b)
    async with make_client(fake) as client:
        job = await client.submit_job(WS, b)
        assert job.name == b["name"]
        other = build_submission_body({**TARGET, "agent": "other"}, "ws1/smoke", b["name"])
        with pytest.raises(PlatformError) as info:  # same name, different job: a real clash
            await client.submit_job(WS, other)
    assert info.value.kind is PlatformErrorKind.CONFLICT


async def test_connect_error_on_post_is_not_recovered_or_retried() -> None:
    fake = FakePlatform()

    def on_post(request: httpx.Request, b: dict[str, Any]) -> httpx.Response:
        raise httpx.ConnectError("[Errno 111] Connection refused")

    fake.on_post = on_post
    async with make_client(fake) as client:
        with pytest.raises(PlatformError) as info:
            await client.submit_job(WS, body())
    assert info.value.kind is PlatformErrorKind.CONNECTION_REFUSED
    assert fake.calls == [("POST", JOBS)]


async def test_5xx_on_post_but_job_exists_returns_it() -> None:
    fake = FakePlatform()

    def on_post(request: httpx.Request, b: dict[str, Any]) -> httpx.Response:
        fake.create(b)
        return httpx.Response(504, text="gateway timeout")

    fake.on_post = on_post
    b = body()
    async with make_client(fake) as client:
        job = await client.submit_job(WS, b)
    assert job.name == b["name"] and fake.count("POST") == 1


# --------------------------------------------------------------------------- other routes


async def test_follow_job_yields_changes_until_terminal_and_survives_a_blip() -> None:
    sequence: list[Any] = ["created", "created", "pending", 503, "active", "active", "error"]

    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == f"{JOBS}/j1/status"
        item = sequence.pop(0)
        if isinstance(item, int):
            return httpx.Response(item, text="blip")
        return httpx.Response(
            200,
            json={
                "id": "x",
                "name": "j1",
                "status": item,
                "status_details": {"message": "gym not found"} if item == "error" else {},
                "error_details": None,
                "steps": [],
            },
        )

    async with make_client(handler) as client:
        seen = [s async for s in follow_job(client, WS, "j1", poll_interval_s=0.001)]
    assert [s.status for s in seen] == ["created", "pending", "active", "error"]
    assert seen[-1].is_terminal and not seen[-1].succeeded
    assert seen[-1].summary() == "error: gym not found"
    assert sequence == []


async def test_follow_job_gives_up_after_repeated_errors() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500, text="down")

    async with make_client(handler) as client:
        with pytest.raises(PlatformError) as info:
            async for _ in follow_job(client, WS, "j1", 0.001, max_consecutive_errors=2):
                pass
    assert info.value.kind is PlatformErrorKind.SERVER


async def test_get_logs_strips_colours_and_asks_for_a_tail() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        rows = [{"message": f"\x1b[31mline {i}\x1b[0m", "job": "j1"} for i in range(3)]
        return httpx.Response(200, json={"data": rows, "total": 3, "next_page": None})

    async with make_client(handler) as client:
        lines = await client.get_logs(WS, "j1", tail=2)
    assert lines == ["line 1", "line 2"]
    assert seen[0].url.params["tail"] == "2"


async def test_cancel_posts_to_cancel_route() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert (request.method, request.url.path) == ("POST", f"{JOBS}/j1/cancel")
        return httpx.Response(200, json=job_json("j1", status="cancelling"))

    async with make_client(handler) as client:
        job = await client.cancel_job(WS, "j1")
    assert job.status == "cancelling"


@pytest.mark.parametrize(
    ("ref", "path"),
    [
        ("smoke", "/apis/evaluator/v2/workspaces/ws1/tasksets/smoke"),
        ("other/smoke", "/apis/evaluator/v2/workspaces/other/tasksets/smoke"),
        ("other/smoke#v2", "/apis/evaluator/v2/workspaces/other/tasksets/smoke/revisions/v2"),
    ],
)
async def test_get_taskset_routes(ref: str, path: str) -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == path
        return httpx.Response(200, json={"name": "smoke", "workspace": "x", "tasks": ["x/a#1"]})

    async with make_client(handler) as client:
        taskset = await client.get_taskset(WS, ref)
    assert taskset.tasks == ["x/a#1"]


async def test_invalid_taskset_ref_fails_before_any_request() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise AssertionError("no request expected")

    async with make_client(handler) as client:
        with pytest.raises(PlatformError) as info:
            await client.get_taskset(WS, "ws/a/b")
    assert info.value.kind is PlatformErrorKind.INVALID


async def test_list_tasksets_follows_pages() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        page = int(request.url.params["page"])
        return httpx.Response(
            200,
            json={"data": [{"name": f"t{page}"}], "pagination": {"total_pages": 2, "page": page}},
        )

    async with make_client(handler) as client:
        names = [t.name for t in await client.list_tasksets(WS)]
    assert names == ["t1", "t2"]


def test_extract_error_finds_the_last_exception_line() -> None:
    lines = [
        "[stderr] starting",
        'Traceback (most recent call last):   File "x.py", line 1, in f     raise '
        "RuntimeError( RuntimeError: The 'gym' CLI was not found on PATH. Install NeMo Gym.",
        "[stderr] done",
    ]
    assert (
        extract_error(lines)
        == "RuntimeError: The 'gym' CLI was not found on PATH. Install NeMo Gym."
    )
    assert extract_error(["all good"]) is None


async def test_job_outcome_of_an_error_fetches_logs() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        assert request.url.path == f"{JOBS}/j1/logs"
        rows = [{"message": "ValueError: bad row"}, {"message": "[stderr] exiting"}]
        return httpx.Response(200, json={"data": rows, "total": 2})

    status = JobStatus(name="j1", status="error", error_details={"message": "exit code 1"})
    async with make_client(handler) as client:
        outcome = await job_outcome(client, WS, status, log_lines=5)
    assert outcome.error == "ValueError: bad row"
    text = outcome.message()
    assert text.startswith("Job j1 (workspace ws1) ended: error. Platform: exit code 1.")
    assert f"URL: {BASE}{JOBS}/j1" in text and text.endswith("[stderr] exiting")


async def test_job_outcome_when_logs_fail_and_when_completed() -> None:
    async with make_client(raising(httpx.ReadTimeout("slow"))) as client:
        failed = await job_outcome(client, WS, JobStatus(name="j1", status="error"), settle_s=0)
        done = await job_outcome(client, WS, JobStatus(name="j1", status="completed"))
    assert "Logs unavailable" in failed.message() and not failed.log_tail
    assert done.succeeded and done.log_problem is None


async def test_job_outcome_waits_for_late_log_lines() -> None:
    pages = [["[stderr] starting"], ["[stderr] starting", "RuntimeError: gym missing"]]

    def handler(request: httpx.Request) -> httpx.Response:
        rows = [{"message": m} for m in (pages.pop(0) if len(pages) > 1 else pages[0])]
        return httpx.Response(200, json={"data": rows, "total": len(rows)})

    async with make_client(handler) as client:
        outcome = await job_outcome(client, WS, JobStatus(name="j1", status="error"), settle_s=3)
    assert outcome.error == "RuntimeError: gym missing"


async def test_logs_with_timestamps_and_results() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        path = request.url.path
        if path.endswith("/logs"):
            rows = [{"timestamp": "2026-11-30T15:49:25.6", "message": "\x1b[2mx\x1b[0m"}]
            return httpx.Response(200, json={"data": rows, "total": 1})
        if path.endswith("/results"):
            return httpx.Response(200, json={"data": [{"name": "summary"}, {"other": 1}]})
        if path.endswith("/results/summary/download"):
            return httpx.Response(200, json={"task_count": 2})
        return httpx.Response(404, json={"detail": "no"})

    async with make_client(handler) as client:
        assert await client.get_logs(WS, "j1", timestamps=True) == ["2026-11-30T15:49:25.6 x"]
        assert await client.list_results(WS, "j1") == ["summary"]
        assert await client.get_result(WS, "j1", "summary") == {"task_count": 2}
