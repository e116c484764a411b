"""The connection to one platform: settings checked before any socket opens, every exchange
bounded in time and size, every failure a `PlatformError` whose message holds no secret.

`PlatformClient` (client.py) adds the routes. Each exchange has one deadline, `timeout_s`, from
connecting to the last byte (`http.exchange`); redirects are reported, never followed, so the
token only ever goes to the configured address. httpx reads nothing from the environment
(`trust_env=False`): the proxy and the CA certificates it may take from there are resolved and
checked here, then passed explicitly (see proxy.py).
"""

from __future__ import annotations

import json
import ssl
from typing import Any, TypeVar

import httpx
from pydantic import BaseModel, SecretStr, ValidationError

from evalsubmit.core.records import record

from .config import ResolvedPlatformConfig
from .errors import (
    PlatformError,
    bad_response,
    bad_setting,
    connection_failed,
    connection_refused,
    http_error,
    redirected,
    timed_out,
    tls_failed,
)
from .http import MAX_RESPONSE_BYTES, Answer, DeadlineExceeded, ResponseTooLarge, exchange
from .proxy import PROXY_VARIABLES, proxy_for, ssl_cert_from_env
from .safety import (
    UnsafeSetting,
    check_base_url,
    check_token,
    display_url,
    plain_http_warning,
    redact,
    ssl_verify,
)

_M = TypeVar("_M", bound=BaseModel)
_C = TypeVar("_C", bound="PlatformConnection")
_SETTING_NAMES = {
    "base_url": "evalsubmit.platform.baseUrl",
    "token": "evalsubmit.platform.token",
    "ca_bundle": "the CA bundle",
}


def _where(key: str, sources: dict[str, str]) -> str:
    """Where a value came from, for messages: "the evalsubmit setting `...`", "env X", ..."""
    source = sources.get(key)
    if source is None or source == "evalsubmit setting":
        return f"the setting `{_SETTING_NAMES[key]}`" if key != "ca_bundle" else "the CA bundle"
    return source


def _in_chain(exc: BaseException, test: Any) -> bool:
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if test(current):
            return True
        current = current.__cause__ or current.__context__
    return False


def _is_refused(exc: BaseException) -> bool:
    return _in_chain(
        exc,
        lambda e: (
            isinstance(e, ConnectionRefusedError)
            or "connection refused" in str(e).lower()
            or "errno 111" in str(e).lower()
        ),
    )


def _is_tls(exc: BaseException) -> bool:
    return _in_chain(exc, lambda e: isinstance(e, ssl.SSLError))


@record
class Route:
    """How requests reach the platform: its URL, the proxy in between (None: directly), and
    the warning to show before the token travels unencrypted, if any."""

    url: httpx.URL
    proxy: httpx.Proxy | None
    warning: str | None


def route_for(
    base_url: str, token: str | None, sources: dict[str, str], *, env_proxy: bool = True
) -> Route:
    """Raises `PlatformError` (kind `config`) for a base URL, token or proxy that cannot be
    used, naming where it came from. ``env_proxy``: whether the environment's proxy applies
    (not with a transport of the caller's). Opens no socket."""
    try:
        url = check_base_url(base_url)
    except UnsafeSetting as problem:
        raise bad_setting("base URL", _where("base_url", sources), str(problem)) from None
    if token is not None:
        try:
            check_token(token)
        except UnsafeSetting as problem:
            raise bad_setting("access token", _where("token", sources), str(problem)) from None
    try:
        proxy = proxy_for(url) if env_proxy else None
    except UnsafeSetting as problem:
        raise bad_setting("proxy", f"env {PROXY_VARIABLES}", str(problem)) from None
    hop = proxy.url if proxy is not None else None
    return Route(url, proxy, plain_http_warning(url, has_token=token is not None, proxy=hop))


def check_config(config: ResolvedPlatformConfig) -> Route:
    """`route_for` a resolved configuration, its CA bundle checked too."""
    verify_for(config)
    token = config.token.get_secret_value().strip() if config.token is not None else None
    return route_for(config.base_url, token or None, dict(config.sources))


def verify_for(config: ResolvedPlatformConfig) -> ssl.SSLContext | bool:
    """The SDK's CA bundle, else ``SSL_CERT_FILE``/``SSL_CERT_DIR`` (what httpx would have read
    with ``trust_env``), else httpx's default (certifi)."""
    bundle: str | None = None
    folder: str | None = None
    if config.ca_bundle:
        where, bundle = _where("ca_bundle", dict(config.sources)), config.ca_bundle
    elif (from_env := ssl_cert_from_env()) is not None:
        name, value = from_env
        where = f"env {name}"
        if name == "SSL_CERT_FILE":
            bundle = value
        else:
            folder = value
    else:
        return True
    try:
        return ssl_verify(bundle, folder)
    except UnsafeSetting as problem:
        raise bad_setting("CA bundle", where, str(problem)) from None


class PlatformConnection:
    """One platform endpoint. Use `async with PlatformClient(...) as client:` or `aclose()`."""

    def __init__(
        self,
        base_url: str,
        *,
        token: SecretStr | str | None = None,
        timeout_s: float = 30.0,
        verify: ssl.SSLContext | bool = True,
        transport: httpx.AsyncBaseTransport | None = None,
        lost_response_wait_s: float = 10.0,
        recover_poll_s: float = 0.5,
        max_response_bytes: int = MAX_RESPONSE_BYTES,
        sources: dict[str, str] | None = None,
    ) -> None:
        """Raises `PlatformError` (kind `config`) for a base URL or token that cannot be used,
        naming where it came from (`sources`, as in `ResolvedPlatformConfig.sources`)."""
        self.base_url = base_url.rstrip("/")
        self.shown_url = display_url(self.base_url)
        self.timeout_s = timeout_s
        self.max_response_bytes = max_response_bytes
        secret = token.get_secret_value() if isinstance(token, SecretStr) else token
        secret = secret.strip() if secret else None  # a pasted token's newline is not part of it
        self._token = SecretStr(secret) if secret else None
        route = route_for(self.base_url, secret, sources or {}, env_proxy=transport is None)
        self.proxy = route.proxy
        #: Shown to the user before the token is sent unencrypted to another machine.
        self.warning = route.warning
        headers = {
            "Accept": "application/json",
            "Accept-Encoding": "identity",  # no compression: the size limit is the real size
            "User-Agent": "evalsubmit",
        }
        if self._token is not None:
            headers["Authorization"] = f"Bearer {self._token.get_secret_value()}"
        self._http = httpx.AsyncClient(
            base_url=self.base_url,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=min(timeout_s, 10.0)),
            verify=verify,
            transport=transport,
            proxy=route.proxy,  # the one checked above; None: directly
            trust_env=False,  # nothing else from the environment (proxy.py)
            follow_redirects=False,
        )
        self._lost_response_wait_s = lost_response_wait_s
        self._recover_poll_s = recover_poll_s

    @classmethod
    def from_config(cls: type[_C], config: ResolvedPlatformConfig, **kwargs: Any) -> _C:
        if "verify" not in kwargs:
            kwargs["verify"] = verify_for(config)
        return cls(
            config.base_url,
            token=config.token,
            timeout_s=config.timeout_s,
            sources=dict(config.sources),
            **kwargs,
        )

    def __repr__(self) -> str:
        auth = "token" if self._token is not None else "no token"
        return f"PlatformClient({self.shown_url!r}, {auth}, timeout_s={self.timeout_s:g})"

    async def __aenter__(self: _C) -> _C:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()

    async def aclose(self) -> None:
        await self._http.aclose()

    # ------------------------------------------------------------------ core request

    def _secret(self) -> str | None:
        return self._token.get_secret_value() if self._token is not None else None

    def _redact(self, text: str) -> str:
        """Every form of the token and any URL user info out of `text`: call it on what the
        platform or the network said *before* the text is shortened into a message."""
        return redact(text, self._secret())

    def _scrub(self, error: PlatformError) -> PlatformError:
        """The last line of defence: no form of the token in the message or the detail."""
        error.message = self._redact(error.message)
        error.args = (error.message,)
        if error.detail is not None:
            error.detail = self._redact_detail(error.detail)
        return error

    def _redact_detail(self, detail: Any) -> Any:
        dumped = json.dumps(detail, default=str)
        cleaned = self._redact(dumped)
        if cleaned == dumped:
            return detail
        try:
            return json.loads(cleaned)
        except ValueError:
            return cleaned

    def _transport_error(self, exc: Exception, action: str) -> PlatformError:
        if isinstance(exc, httpx.TimeoutException | DeadlineExceeded):
            return timed_out(self.shown_url, action, self.timeout_s)
        if isinstance(exc, ResponseTooLarge):
            return bad_response(self.shown_url, action, f"{exc}; evalsubmit stopped reading it")
        if isinstance(exc, httpx.ConnectError) and _is_refused(exc):
            return connection_refused(self.shown_url)
        reason = self._redact(f"{type(exc).__name__}: {exc}")
        if _is_tls(exc):
            return self._scrub(tls_failed(self.shown_url, reason))
        return self._scrub(connection_failed(self.shown_url, reason))

    async def _exchange(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json_body: Any = None,
    ) -> Answer:
        return await exchange(
            self._http,
            method,
            path,
            deadline_s=self.timeout_s,
            max_bytes=self.max_response_bytes,
            params=params,
            json_body=json_body,
        )

    def _decode(self, answer: Answer, action: str) -> Any:
        if not answer.content:
            return None
        try:
            return answer.json()
        except ValueError as exc:
            kind = f"{answer.content_type}, " if answer.content_type else ""
            reason = self._redact(f"not JSON ({kind}{exc})")
            raise self._scrub(bad_response(self.shown_url, action, reason)) from None

    def _check(
        self,
        answer: Answer,
        action: str,
        workspace: str | None = None,
        job_name: str | None = None,
    ) -> Any:
        if answer.is_success:
            return self._decode(answer, action)
        if answer.is_redirect:
            location = self._redact(answer.location) if answer.location else None
            raise self._scrub(redirected(self.shown_url, action, answer.status_code, location))
        try:
            payload = answer.json()
            detail = payload.get("detail", payload) if isinstance(payload, dict) else payload
        except ValueError:
            detail = self._redact(answer.text())[:500] or None
        raise self._scrub(
            http_error(
                answer.status_code,
                self._redact_detail(detail),
                base_url=self.shown_url,
                action=action,
                workspace=workspace,
                job_name=job_name,
            )
        )

    async def _request(
        self,
        method: str,
        path: str,
        *,
        action: str,
        workspace: str | None = None,
        job_name: str | None = None,
        params: dict[str, Any] | None = None,
        json_body: Any = None,
    ) -> Any:
        try:
            answer = await self._exchange(method, path, params=params, json_body=json_body)
        except (httpx.HTTPError, DeadlineExceeded, ResponseTooLarge) as exc:
            raise self._transport_error(exc, action) from None
        except (OSError, ValueError, OverflowError) as exc:  # below httpx: never escapes raw
            raise self._transport_error(exc, action) from None
        return self._check(answer, action, workspace, job_name)

    def _parse(self, model: type[_M], data: Any, action: str) -> _M:
        try:
            return model.model_validate(data)
        except ValidationError as exc:
            summary = f"unexpected shape ({exc.error_count()} problem(s))"
            raise bad_response(self.shown_url, action, summary) from None
