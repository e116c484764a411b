"""A hostile network between evalsubmit and the platform, over real sockets (fault_server.py):
a proxy that drips a byte every 0.3 s, an endless body, a 10 GB promise, a truncated body, a
redirect to another host, a captive portal's HTML page, TLS that does not fit, a proxy that
echoes the token.

For every platform call (submit, taskset lookup, taskset list, job status) each fault must give:
a clear message, no wait beyond the configured limit, bounded memory, no form of the token in
any output, and no job unless one was meant.
"""

from __future__ import annotations

import asyncio
import resource
import ssl
import subprocess
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from evalsubmit.platform import (
    Job,
    PlatformClient,
    PlatformError,
    build_submission_body,
    new_job_name,
)

from .fault_server import FaultPlatform

TOKEN = "nvapi-HOSTILE-9f8e7d6c5b4a3210"
TIMEOUT_S = 1.0
TARGET = {"kind": "gym", "agent": "simple_agent", "agent_config": "c.yaml", "resources_server": "r"}
Call = Callable[[PlatformClient], Awaitable[Any]]


def new_body() -> dict[str, Any]:
    return build_submission_body(TARGET, "ws/s", new_job_name())


def calls() -> dict[str, Call]:
    return {
        "submit": lambda c: c.submit_job(
            "ws", build_submission_body(TARGET, "ws/s", new_job_name())
        ),
        "taskset": lambda c: c.get_taskset("ws", "smoke"),
        "list": lambda c: c.list_tasksets("ws"),
        "status": lambda c: c.get_status("ws", "evalsubmit-x"),
    }


# fault -> (error kind, words the message must contain)
FAULTS: dict[str, tuple[str, tuple[str, ...]]] = {
    "drip": ("timeout", ("did not answer in time", "evalsubmit.platform.timeoutS")),
    "endless": ("bad_response", ("larger than 16 MiB",)),
    "huge": ("bad_response", ("larger than 16 MiB",)),
    "truncated": ("connection", ("Cannot reach", "RemoteProtocolError")),
    "html": ("bad_response", ("not JSON", "text/html")),
    "secret-echo": ("server", ("HTTP 500", "proxy error")),
}


def max_rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def no_token_in(*texts: str) -> None:
    """No 8 characters of the token in any case, raw or URL-encoded (this token has nothing
    that repr or JSON would escape)."""
    for text in texts:
        lowered = text.lower()
        for start in range(len(TOKEN) - 7):
            assert TOKEN[start : start + 8].lower() not in lowered, f"the token leaked: {text}"


async def outcome(platform: FaultPlatform, call: Call) -> tuple[Any, float]:
    async with PlatformClient(
        platform.base_url,
        token=TOKEN,
        timeout_s=TIMEOUT_S,
        lost_response_wait_s=1.0,
        recover_poll_s=0.2,
    ) as client:
        started = time.perf_counter()
        try:
            result: Any = await call(client)
        except PlatformError as error:
            result = error
        return result, time.perf_counter() - started


@pytest.mark.parametrize("operation", sorted(calls()))
@pytest.mark.parametrize("fault", sorted(FAULTS))
async def test_fault(fault: str, operation: str) -> None:
    before = max_rss_mib()
    async with FaultPlatform(fault) as platform:
        result, seconds = await outcome(platform, calls()[operation])
        posts = platform.count("POST")
    grown = max_rss_mib() - before
    print(f"\n[{fault} {operation}] {seconds:.2f} s, +{grown:.0f} MiB: {result!r}")
    assert isinstance(result, PlatformError), result
    kind, words = FAULTS[fault]
    if operation == "submit" and fault in ("drip", "endless", "huge", "truncated", "html"):
        # The POST reached the platform and its answer was lost or unreadable: the job is
        # looked up by name (never posted again), and the message says what is known.
        assert result.kind in ("unknown_outcome", kind), result
        if result.kind == "unknown_outcome":
            words = ("was lost", "not sent again")
    else:
        assert result.kind == kind, result
    for word in words:
        assert word in result.message, result.message
    no_token_in(result.message, repr(result), str(result.detail))
    assert posts == (1 if operation == "submit" else 0)  # never a second job, never a stray one
    # One request's deadline, plus (for a lost submission) 1 s of lookups, each bounded too.
    assert seconds < TIMEOUT_S * (5 if operation == "submit" else 1.5) + 1.0
    assert grown < 100, f"memory grew by {grown:.0f} MiB"


@pytest.mark.parametrize("operation", sorted(calls()))
async def test_a_redirect_is_reported_and_never_followed(operation: str) -> None:
    async with FaultPlatform("ok", delay_s=0) as elsewhere:
        async with FaultPlatform(
            "redirect", redirect_to=f"http://127.0.0.2:{elsewhere.port}/x"
        ) as platform:
            elsewhere.host = "127.0.0.2"
            result, seconds = await outcome(platform, calls()[operation])
        assert isinstance(result, PlatformError), result
        assert result.kind == "redirect"
        assert "HTTP 307" in result.message and f"127.0.0.2:{elsewhere.port}/x" in result.message
        assert "evalsubmit.platform.baseUrl" in result.message
        assert elsewhere.requests == []  # the token never went to the other host
        assert seconds < 2 * TIMEOUT_S


async def test_a_token_echoed_by_a_proxy_never_shows() -> None:
    """The proxy echoes the Authorization header as Python's repr, in upper case, URL-encoded
    and cut at 30 characters: every form is redacted before the message is shortened."""
    async with FaultPlatform("secret-echo") as platform:
        result, _ = await outcome(platform, calls()["taskset"])
    assert isinstance(result, PlatformError)
    assert "***" in result.message
    no_token_in(result.message, repr(result), str(result.detail))


# -- TLS ------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def self_signed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    folder = tmp_path_factory.mktemp("tls")
    key, cert = folder / "key.pem", folder / "cert.pem"
    try:
        subprocess.run(
            [
                "openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                "-keyout", str(key), "-out", str(cert),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError) as error:
        pytest.skip(f"openssl cannot make a test certificate here: {error}")
    return key, cert


def server_context(key: Path, cert: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


async def answer_400(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """What a plain HTTP server says to a TLS ClientHello."""
    await reader.read(1024)
    writer.write(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    await writer.drain()
    writer.close()


async def test_tls_problems_are_named(self_signed: tuple[Path, Path]) -> None:
    key, cert = self_signed
    timeout = 10.0  # TLS handshakes on a busy shared machine
    # https:// to a plain HTTP server
    plain = await asyncio.start_server(answer_400, "127.0.0.1", 0)
    url = f"https://127.0.0.1:{plain.sockets[0].getsockname()[1]}"
    async with plain, PlatformClient(url, token=TOKEN, timeout_s=timeout) as client:
        with pytest.raises(PlatformError) as wrong_scheme:
            await client.get_taskset("ws", "smoke")
    # a certificate no CA of the system vouches for
    async with FaultPlatform("ok", delay_s=0, tls=server_context(key, cert)) as secure:
        async with PlatformClient(secure.base_url, token=TOKEN, timeout_s=timeout) as client:
            with pytest.raises(PlatformError) as untrusted:
                await client.get_taskset("ws", "smoke")
        # ... and the same with the CA bundle given: it works
        trusting = ssl.create_default_context(cafile=str(cert))
        async with PlatformClient(
            secure.base_url, token=TOKEN, timeout_s=timeout, verify=trusting
        ) as client:
            found = await client.get_taskset("ws", "smoke")
    for caught in (wrong_scheme, untrusted):
        assert caught.value.kind == "tls", caught.value
        assert "TLS" in caught.value.message and "CA bundle" in caught.value.message
        no_token_in(caught.value.message)
    assert "CERTIFICATE_VERIFY_FAILED" in untrusted.value.message
    assert found.name == "smoke"


async def test_the_job_of_a_post_whose_answer_is_unreadable_is_found() -> None:
    """A 2xx to the POST whose body cannot be read (here: a captive portal's HTML after the job
    was stored would be odd, so the 'malformed' platform stores it and answers broken JSON):
    the job exists, and the client returns it instead of an error."""
    body = build_submission_body(TARGET, "ws/s", new_job_name())
    async with FaultPlatform("malformed") as platform:
        result, _ = await outcome(platform, lambda c: c.submit_job("ws", body))
        assert isinstance(result, Job) and result.name == body["name"]
        assert platform.count("POST") == 1
