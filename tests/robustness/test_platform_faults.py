"""Platform faults over real sockets (a misbehaving HTTP server on 127.0.0.1 started by each
test): malformed JSON, a connection closed mid-response, an answer after the timeout, 500s.
Every failure is one clear ``PlatformError``; no job is ever posted twice; the token never
appears in a message.
"""

from __future__ import annotations

import time
from typing import Any

import pytest

from evalsubmit.platform import (
    Job,
    PlatformClient,
    PlatformError,
    PlatformErrorKind,
    build_submission_body,
    new_job_name,
)

from .fault_server import FaultPlatform

SECRET = "tok-ROBUST-7f3a9c1e5d"
WS = "ws"
TARGET = {"kind": "gym", "agent": "simple_agent", "agent_config": "c.yaml", "resources_server": "r"}


def client_for(platform: FaultPlatform, **kwargs: Any) -> PlatformClient:
    kwargs.setdefault("timeout_s", 0.5)
    kwargs.setdefault("lost_response_wait_s", 1.0)
    kwargs.setdefault("recover_poll_s", 0.1)
    return PlatformClient(platform.base_url, token=SECRET, **kwargs)


async def submit(
    platform: FaultPlatform, body: dict[str, Any], **kwargs: Any
) -> Job | PlatformError:
    async with client_for(platform, **kwargs) as client:
        try:
            return await client.submit_job(WS, body)
        except PlatformError as error:
            return error


# mode -> (expected kind or "job", words the message must contain)
EXPECTED: dict[str, tuple[str, tuple[str, ...]]] = {
    # a 201 whose body cannot be read: the job exists, and is found by its name
    "malformed": ("job", ()),
    "close-stored": ("job", ()),
    "close-lost": (PlatformErrorKind.UNKNOWN_OUTCOME, ("was lost", "not sent again")),
    "slow": ("job", ()),
    "slow-all": (PlatformErrorKind.UNKNOWN_OUTCOME, ("was lost", "not sent again")),
    "500": (PlatformErrorKind.SERVER, ("HTTP 500", "database is locked")),
    "500-html": (PlatformErrorKind.SERVER, ("HTTP 500",)),
    "502-stored": ("job", ()),
}


@pytest.mark.parametrize("mode", sorted(EXPECTED))
async def test_fault(mode: str) -> None:
    body = build_submission_body(TARGET, "ws/smoke", new_job_name())
    async with FaultPlatform(mode, delay_s=1.5 if mode == "slow" else 0.8) as platform:
        started = time.perf_counter()
        outcome = await submit(platform, body)
        seconds = time.perf_counter() - started
        expected, words = EXPECTED[mode]
        print(f"\n[fault {mode}] {seconds:.2f} s: {outcome!r}")
        assert platform.count("POST") == 1, platform.requests  # never a duplicate job
        if expected == "job":
            # The answer was lost or broken but the job exists: found by its name, not re-posted.
            assert isinstance(outcome, Job) and outcome.name == body["name"]
            assert platform.count("GET") >= 1
        else:
            assert isinstance(outcome, PlatformError), outcome
            assert outcome.kind == expected
            for word in words:
                assert word in outcome.message, outcome.message
            assert SECRET not in outcome.message and SECRET not in repr(outcome)
        assert seconds < 15


async def test_a_lost_submission_is_never_posted_again() -> None:
    """The user retries the same submission after a lost answer: looked up, not re-posted."""
    body = build_submission_body(TARGET, "ws/smoke", new_job_name())
    async with FaultPlatform("close-lost") as platform:
        first = await submit(platform, body)
        second = await submit(platform, body)  # a new client instance, same job name
        assert isinstance(first, PlatformError) and isinstance(second, PlatformError)
        assert second.kind == PlatformErrorKind.UNKNOWN_OUTCOME
        assert platform.count("POST") == 1


async def test_connection_refused_is_clear() -> None:
    async with FaultPlatform("500") as platform:
        url = platform.base_url
    async with PlatformClient(url, token=SECRET, timeout_s=2) as client:
        with pytest.raises(PlatformError) as caught:
            await client.submit_job(WS, build_submission_body(TARGET, "ws/s", new_job_name()))
    assert caught.value.kind == PlatformErrorKind.CONNECTION_REFUSED
    assert "connection refused" in caught.value.message and SECRET not in caught.value.message
