"""Settings that cannot be used are clear errors naming their source; secrets never show.

Covers: base URLs that do not parse or point nowhere (``:80800``, ``http://[::1``), tokens that
cannot travel in a header (non-ASCII, inner blanks) or carry a pasted newline, the SDK config
file at its worst (nested 10,000 deep, ``/dev/zero``, a FIFO), every form of the token a
message can hold, user info in URLs, and the warning before a token goes unencrypted.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from pathlib import Path
from urllib.parse import quote, quote_plus

import pytest

from evalsubmit.platform import PlatformClient, PlatformError, resolve_platform_config
from evalsubmit.platform.connection import route_for
from evalsubmit.platform.safety import display_url, redact

SECRET = "nvapi-Secret-0123456789abcdef"
NO_CONFIG = {"HOME": "/nonexistent-home"}


def client_error(settings: dict[str, object], env: dict[str, str] | None = None) -> PlatformError:
    config = resolve_platform_config(settings, env={**NO_CONFIG, **(env or {})})
    with pytest.raises(PlatformError) as caught:
        PlatformClient.from_config(config)
    return caught.value


@pytest.mark.parametrize(
    ("url", "why"),
    [
        ("http://127.0.0.1:80800", "port 80800"),
        ("http://[::1", "not a valid URL"),
        ("localhost:8080", "did you mean 'http://localhost:8080'"),
        ("ftp://nmp.example.com", "http:// or https://"),
        ("http://", "no valid host"),
    ],
)
def test_a_bad_base_url_names_the_setting(url: str, why: str) -> None:
    error = client_error({"baseUrl": url})
    assert error.kind == "config"
    assert "`evalsubmit.platform.baseUrl`" in error.message and why in error.message


def test_a_bad_base_url_from_the_environment_names_the_variable() -> None:
    error = client_error({}, env={"NEMO_PLATFORM_BASE_URL": "http://127.0.0.1:99999"})
    assert "env NEMO_PLATFORM_BASE_URL" in error.message and "port 99999" in error.message


@pytest.mark.parametrize(
    ("token", "why"),
    [("tök-123456789", "non-ASCII character at position 2"), ("abc def", "space or control")],
)
def test_a_token_that_cannot_be_sent_is_a_clear_error(token: str, why: str) -> None:
    error = client_error({"baseUrl": "http://127.0.0.1:1", "token": token})
    assert error.kind == "config" and why in error.message
    assert "`evalsubmit.platform.token`" in error.message
    assert token not in error.message and token[:4] not in error.message


def test_a_token_from_the_environment_is_named_by_its_variable() -> None:
    error = client_error({}, env={"NMP_ACCESS_TOKEN": "caf\u00e9-token-12345"})
    assert "env NMP_ACCESS_TOKEN" in error.message


async def test_a_pasted_newline_is_not_part_of_the_token() -> None:
    """`vim.fn.system("pass show nmp")` gives the token with a trailing newline; it is sent
    without it (it used to make httpx fail with the token's repr in the message)."""
    from robustness.fault_server import FaultPlatform

    async with FaultPlatform("ok", delay_s=0) as platform:
        config = resolve_platform_config(
            {"baseUrl": platform.base_url, "token": f"  {SECRET}\n"}, env=NO_CONFIG
        )
        async with PlatformClient.from_config(config) as client:
            await client.get_taskset("ws", "smoke")
        assert platform.requests[0][3]["authorization"] == f"Bearer {SECRET}"


def test_the_config_file_at_its_worst_is_a_warning(tmp_path: Path) -> None:
    deep = tmp_path / "deep.yaml"
    deep.write_text("a: " + "[" * 10_000 + "]" * 10_000 + "\n")
    fifo = tmp_path / "fifo.yaml"
    os.mkfifo(fifo)
    binary = tmp_path / "binary.yaml"
    binary.write_bytes(b"\xff\xfe\x00" * 100)
    cases = {
        str(deep): "nested too deeply",
        "/dev/zero": "not a regular file",
        str(fifo): "not a regular file",
        str(binary): "not UTF-8",
        str(tmp_path): "not a regular file",
    }
    for path, why in cases.items():
        started = time.monotonic()
        config = resolve_platform_config({}, env={**NO_CONFIG, "NMP_CONFIG_FILE": path})
        assert time.monotonic() - started < 5, path
        assert any(why in w for w in config.warnings), (path, config.warnings)
        assert config.base_url == "http://localhost:8080"


def test_every_form_of_the_token_is_redacted() -> None:
    padded = SECRET + "\n"
    forms = [
        SECRET,
        repr(padded),  # 'nvapi-...\\n'
        json.dumps(padded),
        SECRET.upper(),
        SECRET.lower(),
        quote(SECRET, safe=""),
        quote_plus("Bearer " + SECRET),
        SECRET[:9],  # a prefix of 8+ characters: a message cut in the middle of the token
        repr(f"Bearer {padded}".encode()),
    ]
    for form in forms:
        text = f"said: {form} (end)"
        cleaned = redact(text, padded)
        assert SECRET[:8].lower() not in cleaned.lower(), (form, cleaned)
        assert cleaned.startswith("said: ") and cleaned.endswith(" (end)")
    assert redact("nvapi-S is short", SECRET) == "nvapi-S is short"  # under 8: ordinary text


def test_user_info_in_urls_is_hidden() -> None:
    assert (
        display_url("http://user:pw@nmp.example.com:8080/x") == "http://***@nmp.example.com:8080/x"
    )
    text = "see https://me:hunter2@host/a and http://host/b"
    assert redact(text, None) == "see https://***@host/a and http://host/b"


async def test_user_info_never_shows_in_messages() -> None:
    async with PlatformClient("http://admin:hunter2@127.0.0.1:9", timeout_s=2) as client:
        with pytest.raises(PlatformError) as caught:
            await client.get_taskset("ws", "smoke")
        assert "hunter2" not in caught.value.message and "***@127.0.0.1:9" in caught.value.message
        assert "hunter2" not in client.job_url("ws", "x") and "hunter2" not in repr(client)


def test_a_token_over_plain_http_to_another_machine_is_warned_about() -> None:
    remote = route_for("http://nmp.example.com:8080", SECRET, {}).warning
    assert remote is not None and "unencrypted" in remote and SECRET not in remote
    for url, token in (
        ("https://nmp.example.com", SECRET),
        ("http://127.0.0.1:8080", SECRET),
        ("http://localhost:8080", SECRET),
        ("http://[::1]:8080", SECRET),
        ("http://nmp.example.com:8080", None),  # no token, nothing to protect
    ):
        assert route_for(url, token, {}).warning is None, url


# -- the proxy in between (issue 23, item 8) ----------------------------------------------------

PROXY = "http://proxy.example:3128"
PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY", "REQUEST_METHOD")


@pytest.fixture
def proxy_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """No proxy variable of the machine's: each test sets its own."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    return monkeypatch


@pytest.mark.parametrize(
    ("url", "env", "proxy_named"),
    [
        # a loopback platform through a proxy elsewhere is not loopback any more
        ("http://127.0.0.1:8080", {"HTTP_PROXY": PROXY}, True),
        ("http://localhost:8080", {"all_proxy": PROXY}, True),
        ("http://nmp.example.com:8080", {"HTTP_PROXY": PROXY}, True),
        ("http://127.0.0.1:8080", {"HTTP_PROXY": "https://proxy.example:3129"}, True),
        # NO_PROXY names the platform: reached directly, the rule of the direct route applies
        ("http://nmp.internal:8080", {"HTTP_PROXY": PROXY, "NO_PROXY": ".internal"}, False),
    ],
)
def test_a_token_over_plain_http_through_a_proxy_is_warned_about(
    proxy_env: pytest.MonkeyPatch, url: str, env: dict[str, str], proxy_named: bool
) -> None:
    for name, value in env.items():
        proxy_env.setenv(name, value)
    warning = route_for(url, SECRET, {}).warning
    assert warning is not None and "unencrypted" in warning and SECRET not in warning
    assert ("through the proxy proxy.example" in warning) is proxy_named, warning


@pytest.mark.parametrize(
    ("url", "env"),
    [
        # over https:// the proxy only relays an encrypted tunnel (CONNECT)
        ("https://nmp.example.com", {"HTTPS_PROXY": PROXY, "HTTP_PROXY": PROXY}),
        ("https://127.0.0.1:8443", {"ALL_PROXY": PROXY}),
        ("http://127.0.0.1:8080", {"HTTP_PROXY": PROXY, "NO_PROXY": "127.0.0.1"}),
        ("http://localhost:8080", {"HTTP_PROXY": PROXY, "no_proxy": "example.org,localhost"}),
        ("http://127.0.0.1:8080", {"HTTP_PROXY": PROXY, "NO_PROXY": "*"}),
        ("http://127.0.0.1:8080", {"HTTP_PROXY": "http://127.0.0.1:3128"}),  # both on this machine
        ("http://127.0.0.1:8080", {"HTTPS_PROXY": PROXY}),  # a proxy for https:// only
    ],
)
def test_no_warning_where_no_hop_reads_the_token(
    proxy_env: pytest.MonkeyPatch, url: str, env: dict[str, str]
) -> None:
    for name, value in env.items():
        proxy_env.setenv(name, value)
    assert route_for(url, SECRET, {}).warning is None


async def test_the_proxy_that_is_checked_is_the_one_used(proxy_env: pytest.MonkeyPatch) -> None:
    from robustness.fault_server import FaultPlatform

    async with FaultPlatform("ok", delay_s=0) as proxy:
        proxy_env.setenv("HTTP_PROXY", proxy.base_url)
        proxy_env.setenv("NO_PROXY", "nmp.elsewhere.example")  # another host: no effect here
        config = resolve_platform_config(
            {"baseUrl": "http://nmp.example.invalid:8080", "token": SECRET}, env=NO_CONFIG
        )
        async with PlatformClient.from_config(config) as client:
            assert client.warning is not None and "through the proxy 127.0.0.1" in client.warning
            assert client.proxy is not None and str(client.proxy.url) == proxy.base_url
            with contextlib.suppress(PlatformError):
                await client.get_taskset("ws", "smoke")
    _method, path, _body, headers = proxy.requests[0]
    assert path.startswith("http://nmp.example.invalid:8080/apis/evaluator/v2/"), path
    assert headers["authorization"] == f"Bearer {SECRET}"  # what the warning was about


def test_the_environment_gives_nothing_httpx_would_take_unchecked(
    proxy_env: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """trust_env is off: SSL_CERT_FILE is read by evalsubmit, checked like a CA bundle and
    named when it cannot be used (httpx raised a bare FileNotFoundError)."""
    proxy_env.setenv("SSL_CERT_FILE", str(tmp_path / "missing.pem"))
    error = client_error({"baseUrl": "https://nmp.example.com"})
    assert error.kind == "config" and "env SSL_CERT_FILE" in error.message
    proxy_env.delenv("SSL_CERT_FILE")
    proxy_env.setenv("SSL_CERT_DIR", str(tmp_path / "no-such-folder"))
    error = client_error({"baseUrl": "https://nmp.example.com"})
    assert error.kind == "config" and "env SSL_CERT_DIR" in error.message
    proxy_env.delenv("SSL_CERT_DIR")
    proxy_env.setenv("HTTP_PROXY", "ftp://proxy.example:21")
    error = client_error({"baseUrl": "http://127.0.0.1:8080"})
    assert error.kind == "config" and "HTTP_PROXY" in error.message
